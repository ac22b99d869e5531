// What a redirecting code adds to its destination's query string: the visitor's own query
// (on by default; the visitor's value wins) and fixed UTM parameters. Only the query string
// ever changes: the destination's host and path stay as written.
import type { JSX } from 'preact';
import { Field } from '../../components/field.tsx';
import { type LifecycleDraft, UTM_PARTS, type UtmPart } from './lifecycle-model.ts';

interface PassthroughFieldsProps {
  lifecycle: LifecycleDraft;
  error: (field: string) => string | undefined;
  onChange: (patch: Partial<LifecycleDraft>, touched: string | null) => void;
}

const UTM_HINTS: Record<UtmPart, string> = {
  source: 'e.g. poster',
  medium: 'e.g. print',
  campaign: 'e.g. spring-sale',
  term: '',
  content: 'e.g. variant-a',
};

export function PassthroughFields({ lifecycle: l, error, onChange }: PassthroughFieldsProps) {
  return (
    <fieldset class="field schedule__group">
      <legend>Query string</legend>
      <label class="check">
        <input
          type="checkbox"
          checked={l.forwardQuery}
          aria-describedby="forward-query-hint"
          onChange={(e: JSX.TargetedEvent<HTMLInputElement>) => onChange({ forwardQuery: e.currentTarget.checked }, null)}
        />
        <span>
          Pass the visitor’s query string on
          <span class="block muted small" id="forward-query-hint">
            A short link opened as …?ref=flyer sends ref=flyer on to the destination.
          </span>
        </span>
      </label>
      <p class="hint">UTM parameters added to every destination (utm_source=… and so on), for your analytics:</p>
      <div class="schedule__utm">
        {UTM_PARTS.map((p) => (
          <Field
            key={p}
            label={`utm_${p}`}
            name={`utm.${p}`}
            value={l.utm[p]}
            hint={UTM_HINTS[p] || undefined}
            spellcheck={false}
            error={error(`utm.${p}`)}
            onInput={(v) => onChange({ utm: { ...l.utm, [p]: v } }, `utm.${p}`)}
          />
        ))}
      </div>
    </fieldset>
  );
}
