// A rule's split: 2 to 10 addresses, each with a weight in percent; the weights must add up
// to 100, and the running sum is shown as they are typed. Each visitor keeps their variant for a day.
import type { JSX } from 'preact';
import { describedBy, FieldError } from '../../components/field.tsx';
import { Button } from '../../components/ui.tsx';
import { VARIANTS_MAX, VARIANTS_MIN, type VariantDraft, weightSum } from './rules-model.ts';

interface SplitEditorProps {
  /** The rule's uid: the fields' names start with it. */
  uid: string;
  split: VariantDraft[];
  errors: Record<string, string>;
  shown: (field: string) => boolean;
  onChange: (split: VariantDraft[], touched: string | null) => void;
}

export function SplitEditor({ uid, split, errors, shown, onChange }: SplitEditorProps) {
  const sum = weightSum(split);
  const sumField = `${uid}-split`;
  // The sum's error shows once a weight was edited and left, or after a save attempt.
  const sumError = shown(sumField) || split.some((_, i) => shown(`${uid}-w${i}`)) ? errors[sumField] : undefined;
  const set = (i: number, patch: Partial<VariantDraft>, touched: string) =>
    onChange(
      split.map((v, j) => (j === i ? { ...v, ...patch } : v)),
      touched,
    );
  return (
    <div class="split">
      <p class="hint">Each visitor is sent to one address, chosen by weight, and keeps it for a day.</p>
      <ol class="split__list">
        {split.map((v, i) => {
          const dest = `f-${uid}-v${i}`;
          const weight = `f-${uid}-w${i}`;
          const destError = shown(`${uid}-v${i}`) ? errors[`${uid}-v${i}`] : undefined;
          const weightError = shown(`${uid}-w${i}`) ? errors[`${uid}-w${i}`] : undefined;
          return (
            // Variant numbers stay with their place: the stats name a variant by its position.
            <li class="split__row" key={i}>
              <div class={`field split__dest${destError ? ' field--invalid' : ''}`}>
                <label for={dest}>Variant {i + 1} address</label>
                <input
                  id={dest}
                  type="url"
                  value={v.destination}
                  aria-required="true"
                  aria-invalid={destError ? 'true' : undefined}
                  aria-describedby={describedBy(dest, false, destError)}
                  onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => set(i, { destination: e.currentTarget.value }, `${uid}-v${i}`)}
                />
                <FieldError id={dest} error={destError} />
              </div>
              <div class={`field split__weight${weightError ? ' field--invalid' : ''}`}>
                <label for={weight}>
                  Weight<span class="visually-hidden"> of variant {i + 1}</span> (%)
                </label>
                <input
                  id={weight}
                  type="number"
                  min={0}
                  max={100}
                  step={1}
                  inputMode="numeric"
                  value={v.weight}
                  aria-invalid={weightError || sumError ? 'true' : undefined}
                  aria-describedby={[describedBy(weight, false, weightError), `${uid}-sum`].filter(Boolean).join(' ')}
                  onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => set(i, { weight: e.currentTarget.value }, `${uid}-w${i}`)}
                />
                <FieldError id={weight} error={weightError} />
              </div>
              {split.length > VARIANTS_MIN ? (
                <Button
                  variant="secondary"
                  aria-label={`Remove variant ${i + 1}`}
                  onClick={() => {
                    onChange(
                      split.filter((_, j) => j !== i),
                      null,
                    );
                    // The button goes with its row: the focus moves to the one that adds a variant.
                    document.getElementById(`${uid}-add-variant`)?.focus();
                  }}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {/* The running sum; once its error shows, the error says it. */}
      <p class={`counter${sumError ? ' visually-hidden' : ''}`} id={`${uid}-sum`}>
        Weights add up to {sum} of 100
      </p>
      <FieldError id={`f-${sumField}`} error={sumError} />
      <div class="button-row">
        <Button
          id={`${uid}-add-variant`}
          variant="secondary"
          disabled={split.length >= VARIANTS_MAX}
          onClick={() => onChange([...split, { destination: '', weight: '' }], null)}
        >
          Add a variant
        </Button>
        <span class="muted small">
          {split.length} of {VARIANTS_MAX} variants
        </span>
      </div>
    </div>
  );
}
