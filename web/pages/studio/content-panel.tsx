// What the code holds: a tab per kind with its typed fields, or the raw payload. Messages
// come from the API's own payload rules and show under their field once it was edited (or
// after a save attempt), not while the form is still empty.
import type { JSX } from 'preact';
import { type ContentType, PAYLOAD_MAX_LENGTH } from '../../../src/domain/payload/index.ts';
import { FieldError, describedBy } from '../../components/field.tsx';
import { type Content, type ContentCheck, codePoints, count, type FieldDef, fieldsFor, type FieldName } from './content-model.ts';
import { KindTabs } from './kind-tabs.tsx';

export interface ContentPanelProps {
  content: Content;
  check: ContentCheck;
  /** Fields whose messages may show. */
  shown: (field: FieldName | 'payload') => boolean;
  onChange: (content: Content, touched: FieldName | 'payload' | null) => void;
  readOnly: boolean;
  /** Off where the page picks the kind itself (static codes): the fields only. */
  tabs?: boolean;
}

export function ContentPanel({ content, check, shown, onChange, readOnly, tabs = true }: ContentPanelProps) {
  const selectKind = (kind: ContentType) => onChange({ ...content, kind }, null);
  const error = (f: FieldName | 'payload') => (shown(f) ? check.errors[f] : undefined);
  return (
    <section class="card" aria-labelledby="content-h">
      <h2 id="content-h">Content</h2>
      {tabs ? <KindTabs kind={content.kind} onSelect={selectKind} readOnly={readOnly} /> : null}
      <div id="content-panel" {...(tabs ? { role: 'tabpanel', 'aria-labelledby': `tab-${content.kind}` } : {})}>
        {content.raw === null ? (
          fieldsFor(content).map((def) => (
            <TypedField
              key={def.name}
              def={def}
              value={content.fields[def.name]}
              error={error(def.name)}
              warning={check.warnings[def.name]}
              readOnly={readOnly}
              onInput={(v) => onChange({ ...content, fields: { ...content.fields, [def.name]: v } }, def.name)}
            />
          ))
        ) : (
          <div class={`field${error('payload') ? ' field--invalid' : ''}`}>
            <label for="f-payload">Raw payload</label>
            <p class="hint" id="f-payload-hint">
              Encoded behind the short link as written, at most {count(PAYLOAD_MAX_LENGTH)} characters
            </p>
            <textarea
              id="f-payload"
              rows={4}
              value={content.raw}
              readOnly={readOnly}
              aria-invalid={error('payload') ? 'true' : undefined}
              aria-describedby={[describedBy('f-payload', true, error('payload')), readOnly ? '' : 'f-payload-count']
                .filter(Boolean)
                .join(' ')}
              onInput={(e: JSX.TargetedEvent<HTMLTextAreaElement>) => onChange({ ...content, raw: e.currentTarget.value }, 'payload')}
            />
            {readOnly ? null : <Counter id="f-payload" value={content.raw} />}
            <FieldError id="f-payload" error={error('payload')} />
          </div>
        )}
        {readOnly ? null : (
          <label class="check">
            <input
              type="checkbox"
              checked={content.raw !== null}
              onChange={(e: JSX.TargetedEvent<HTMLInputElement>) =>
                onChange({ ...content, raw: e.currentTarget.checked ? (check.payload ?? '') : null }, null)
              }
            />
            <span>Enter the raw payload instead of the fields</span>
          </label>
        )}
      </div>
      {check.payload !== null ? (
        <p class="destination">
          <span class="muted">{tabs ? 'Leads to:' : 'The code holds:'}</span> <code>{check.payload}</code>
        </p>
      ) : null}
    </section>
  );
}

/** A live count against the payload limit, so the limit is known before it is reached. */
function Counter({ id, value }: { id: string; value: string }) {
  const n = codePoints(value);
  return (
    <p class={`counter${n > PAYLOAD_MAX_LENGTH ? ' counter--over' : ''}`} id={`${id}-count`}>
      {count(n)} of {count(PAYLOAD_MAX_LENGTH)} characters
    </p>
  );
}

interface TypedFieldProps {
  def: FieldDef;
  value: string;
  error: string | undefined;
  warning: string | undefined;
  onInput: (v: string) => void;
  readOnly: boolean;
}

function TypedField({ def, value, error, warning, onInput, readOnly }: TypedFieldProps) {
  const id = `f-${def.name}`;
  const counted = def.counted === true && !readOnly;
  const warned = warning !== undefined && error === undefined;
  const extra = [counted ? `${id}-count` : '', warned ? `${id}-warning` : ''];
  const common = {
    id,
    name: def.name,
    value,
    readOnly,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': [describedBy(id, Boolean(def.hint), error), ...extra].filter(Boolean).join(' ') || undefined,
    'aria-required': def.required ? ('true' as const) : undefined,
  };
  return (
    <div class={`field${error ? ' field--invalid' : ''}`}>
      <label for={id}>
        {def.label}
        {def.required ? null : <span class="optional"> (optional)</span>}
      </label>
      {def.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {def.hint}
        </p>
      ) : null}
      {def.options ? (
        <select {...common} disabled={readOnly} onChange={(e: JSX.TargetedEvent<HTMLSelectElement>) => onInput(e.currentTarget.value)}>
          {def.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : def.multiline ? (
        <textarea {...common} rows={3} onInput={(e: JSX.TargetedEvent<HTMLTextAreaElement>) => onInput(e.currentTarget.value)} />
      ) : (
        <input
          {...common}
          type={def.type ?? 'text'}
          autoComplete="off"
          onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => onInput(e.currentTarget.value)}
        />
      )}
      {counted ? <Counter id={id} value={value} /> : null}
      <FieldError id={id} error={error} />
      {warned ? (
        <p class="field-warning" id={`${id}-warning`}>
          {warning}
        </p>
      ) : null}
    </div>
  );
}
