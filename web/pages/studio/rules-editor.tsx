// The rules of a redirecting code: an ordered list (first match wins), each rule with its
// conditions and either one destination or a split. Rules are added, moved up and down
// (buttons, so the keyboard does it as the mouse does) and removed; the focus stays with
// the rule that moved, and each change is said aloud.
import { useEffect, useState } from 'preact/hooks';
import { announce } from '../../components/announce.ts';
import { Field, FieldError } from '../../components/field.tsx';
import { Button } from '../../components/ui.tsx';
import { ConditionEditor } from './condition-editor.tsx';
import { CONDITIONS_MAX, newCondition, newRule, RULES_MAX, type RuleDraft, startSplit } from './rules-model.ts';
import { SplitEditor } from './split-editor.tsx';

interface RulesEditorProps {
  rules: RuleDraft[];
  errors: Record<string, string>;
  shown: (field: string) => boolean;
  /** `touched`: the field edited, for when its error may show. */
  onChange: (rules: RuleDraft[], touched: string | null) => void;
}

/** Where the focus goes after a change that removes or moves the element holding it. */
type FocusTarget = { id: string; fallback?: string } | null;

export function RulesEditor({ rules, errors, shown, onChange }: RulesEditorProps) {
  const [focus, setFocus] = useState<FocusTarget>(null);
  useEffect(() => {
    if (!focus) return;
    const el = document.getElementById(focus.id) as HTMLButtonElement | null;
    const target = el && !el.disabled ? el : focus.fallback ? document.getElementById(focus.fallback) : null;
    target?.focus();
    setFocus(null);
  }, [focus]);

  const set = (i: number, rule: RuleDraft, touched: string | null = null) =>
    onChange(
      rules.map((r, j) => (j === i ? rule : r)),
      touched,
    );
  const add = () => {
    const rule = newRule();
    onChange([...rules, rule], null);
    setFocus({ id: `f-${rule.uid}-name` });
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...rules];
    const [rule] = next.splice(i, 1) as [RuleDraft];
    next.splice(i + by, 0, rule);
    onChange(next, null);
    const dir = by < 0 ? 'up' : 'down';
    setFocus({ id: `${rule.uid}-${dir}`, fallback: `${rule.uid}-${dir === 'up' ? 'down' : 'up'}` });
    announce(`${ruleLabel(rule, i + by)} is now rule ${i + by + 1} of ${rules.length}`);
  };
  const remove = (i: number) => {
    const rule = rules[i] as RuleDraft;
    const next = rules.filter((_, j) => j !== i);
    onChange(next, null);
    const neighbour = next[i] ?? next[i - 1];
    setFocus({ id: neighbour ? `${neighbour.uid}-h` : 'add-rule' });
    announce(`${ruleLabel(rule, i)} removed`);
  };

  const full = rules.length >= RULES_MAX;
  return (
    <section class="card" aria-labelledby="rules-h">
      <h2 id="rules-h">Rules</h2>
      <p class="hint">
        Send visitors somewhere else by their phone, country, language or the time. The first rule that matches wins; a visitor no rule
        matches goes to the address above.
      </p>
      {rules.length > 0 ? (
        <ol class="rules">
          {rules.map((rule, i) => (
            <RuleCard
              key={rule.uid}
              rule={rule}
              index={i}
              count={rules.length}
              errors={errors}
              shown={shown}
              onChange={(r, touched) => set(i, r, touched)}
              onMove={(by) => move(i, by)}
              onRemove={() => remove(i)}
            />
          ))}
        </ol>
      ) : null}
      <FieldError id="rules" error={errors.rules} />
      <div class="button-row">
        <Button id="add-rule" variant="secondary" disabled={full} aria-describedby="rules-count" onClick={add}>
          Add a rule
        </Button>
        <span class="muted small" id="rules-count">
          {rules.length} of {RULES_MAX} rules{full ? ': remove one to add another' : ''}
        </span>
      </div>
    </section>
  );
}

function ruleLabel(rule: RuleDraft, i: number): string {
  return rule.name.trim() ? `Rule “${rule.name.trim()}”` : `Rule ${i + 1}`;
}

interface RuleCardProps {
  rule: RuleDraft;
  index: number;
  count: number;
  errors: Record<string, string>;
  shown: (field: string) => boolean;
  onChange: (rule: RuleDraft, touched: string | null) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

function RuleCard({ rule, index, count, errors, shown, onChange, onMove, onRemove }: RuleCardProps) {
  const u = rule.uid;
  const label = ruleLabel(rule, index);
  const error = (f: string) => (shown(f) ? errors[f] : undefined);
  const [focusCondition, setFocusCondition] = useState<string | null>(null);
  useEffect(() => {
    if (focusCondition) document.getElementById(focusCondition)?.focus();
    setFocusCondition(null);
  }, [focusCondition]);
  const full = rule.conditions.length >= CONDITIONS_MAX;
  const addCondition = () => {
    const c = newCondition();
    onChange({ ...rule, conditions: [...rule.conditions, c] }, null);
    setFocusCondition(`f-${c.uid}-type`);
  };
  const removeCondition = (j: number) => {
    const next = rule.conditions.filter((_, k) => k !== j);
    onChange({ ...rule, conditions: next }, null);
    const neighbour = next[j] ?? next[j - 1];
    setFocusCondition(neighbour ? `f-${neighbour.uid}-type` : `${u}-add-condition`);
    announce(`Condition ${j + 1} removed`);
  };
  return (
    <li class="rule" aria-labelledby={`${u}-h`}>
      <div class="rule__head">
        <h3 class="rule__title" id={`${u}-h`} tabIndex={-1}>
          {index + 1}. {rule.name.trim() || 'Unnamed rule'}
        </h3>
        <div class="rule__tools">
          <Button variant="secondary" id={`${u}-up`} aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            ↑ Up
          </Button>
          <Button
            variant="secondary"
            id={`${u}-down`}
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓ Down
          </Button>
          <Button variant="secondary" aria-label={`Remove ${label}`} onClick={onRemove}>
            Remove
          </Button>
        </div>
      </div>
      <FieldError id={`${u}-server`} error={errors[`${u}-server`]} />
      <Field
        label="Name"
        name={`${u}-name`}
        value={rule.name}
        maxLength={100}
        hint="Shown in the stats, e.g. “iPhones to the App Store”"
        onInput={(name) => onChange({ ...rule, name }, null)}
      />
      <fieldset class="field rule__conditions">
        <legend>When all of these hold</legend>
        {rule.conditions.map((c, j) => (
          <ConditionEditor
            key={c.uid}
            condition={c}
            index={j}
            error={shown(c.uid) ? errors[c.uid] : undefined}
            onChange={(next) => onChange({ ...rule, conditions: rule.conditions.map((x) => (x.uid === c.uid ? next : x)) }, c.uid)}
            onRemove={() => removeCondition(j)}
          />
        ))}
        {rule.conditions.length === 0 ? <p class="muted small">No conditions: this rule takes every visitor who reaches it.</p> : null}
        <FieldError id={`${u}-conditions`} error={errors[`${u}-conditions`]} />
        <div class="button-row">
          <Button
            id={`${u}-add-condition`}
            variant="secondary"
            disabled={full}
            aria-describedby={`${u}-condition-count`}
            onClick={addCondition}
          >
            Add a condition
          </Button>
          <span class="muted small" id={`${u}-condition-count`}>
            {rule.conditions.length} of {CONDITIONS_MAX} conditions
          </span>
        </div>
      </fieldset>
      <fieldset class="field">
        <legend>Send these visitors to</legend>
        <div class="rule__modes">
          <label class="check">
            <input
              type="radio"
              name={`${u}-mode`}
              checked={rule.mode === 'destination'}
              onChange={() =>
                onChange({ ...rule, mode: 'destination', destination: rule.destination || (rule.split[0]?.destination ?? '') }, null)
              }
            />
            <span>One address</span>
          </label>
          <label class="check">
            <input
              type="radio"
              name={`${u}-mode`}
              checked={rule.mode === 'split'}
              onChange={() => onChange({ ...rule, mode: 'split', split: startSplit(rule) }, null)}
            />
            <span>A split between addresses (A/B test)</span>
          </label>
        </div>
        {rule.mode === 'destination' ? (
          <Field
            label="Address"
            name={`${u}-destination`}
            type="url"
            required
            value={rule.destination}
            error={error(`${u}-destination`)}
            onInput={(destination) => onChange({ ...rule, destination }, `${u}-destination`)}
          />
        ) : (
          <SplitEditor
            uid={u}
            split={rule.split}
            errors={errors}
            shown={shown}
            onChange={(split, touched) => onChange({ ...rule, split }, touched)}
          />
        )}
      </fieldset>
    </li>
  );
}
