// Saved designs ("templates"): the built-in ones and the account's, applied with one click;
// the current design saved under a name; designs to and from JSON files.
import type { JSX } from 'preact';
import { titleSlug } from '../../../src/domain/qr-items/title-slug.ts';
import { useState } from 'preact/hooks';
import type { QrDesign } from '../../../src/domain/design/design-schema.ts';
import { announce, byId, useFocusLater } from '../../components/announce.ts';
import { ConfirmButton } from '../../components/ui.tsx';
import { BUILT_IN_DESIGNS, designFile, fileNameOf, type NamedDesign, readDesignFile } from './design-file.ts';

export interface SavedDesign extends NamedDesign {
  id: string;
}

export interface LibraryProps {
  design: QrDesign;
  title: string;
  saved: SavedDesign[] | null;
  onApply: (design: QrDesign) => void;
  /** Saves the current design under a name; null when saving designs is not possible here. */
  onSave: ((name: string) => Promise<void>) | null;
  onDelete: ((id: string) => Promise<void>) | null;
}

export function DesignLibrary({ design, title, saved, onApply, onSave, onDelete }: LibraryProps) {
  const [choice, setChoice] = useState('');
  const [name, setName] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'ok'; text: string } | null>(null);
  const all: Array<{ key: string; label: string; design: QrDesign; id?: string }> = [
    ...BUILT_IN_DESIGNS.map((d, i) => ({ key: `builtin:${i}`, label: `${d.name} (built in)`, design: d.design })),
    ...(saved ?? []).map((d) => ({ key: `saved:${d.id}`, label: d.name, design: d.design, id: d.id })),
  ];
  const picked = all.find((d) => d.key === choice);
  const focusLater = useFocusLater();
  /** Says what happened, on screen and aloud (the line is not a live region: announce is). */
  const tell = (m: { kind: 'error' | 'ok'; text: string }) => {
    setMessage(m);
    announce(m.text);
  };
  const importFile = async (e: JSX.TargetedEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    try {
      const read = readDesignFile(await file.text());
      onApply(read.design);
      tell({ kind: 'ok', text: `Design “${read.name}” imported.` });
    } catch (err) {
      tell({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };
  const exportDesign = () => {
    const url = URL.createObjectURL(new Blob([designFile(title || 'Design', design)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    // Before a title there is no name to put in front: `design.json`, not `design.design.json`.
    a.download = titleSlug(title) === '' ? 'design.json' : fileNameOf(title, 'design.json');
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const save = async () => {
    if (!onSave) return;
    try {
      await onSave(name.trim());
      tell({ kind: 'ok', text: `Design “${name.trim()}” saved.` });
      setName('');
    } catch (err) {
      tell({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <section class="card library" aria-labelledby="library-h">
      <h2 id="library-h">Saved designs</h2>
      <div class="inline-form">
        <div class="field">
          <label for="library-pick">Start from a design</label>
          <select id="library-pick" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
            {/* selected, not only the select's value: once the chosen design is deleted the
                select shows nothing and reads as '', so a value of '' would not be set again. */}
            <option value="" selected={choice === ''}>
              Choose…
            </option>
            {all.map((d) => (
              <option key={d.key} value={d.key}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          class="btn btn--secondary"
          disabled={!picked}
          onClick={() => {
            if (!picked) return;
            onApply(picked.design);
            tell({ kind: 'ok', text: `Design “${picked.label}” applied.` });
          }}
        >
          Use this design
        </button>
        {picked?.id !== undefined && onDelete ? (
          <ConfirmButton
            label="Delete it"
            ariaLabel={`Delete the saved design “${picked.label}”`}
            confirmLabel="Delete"
            question={`Delete the saved design “${picked.label}”?`}
            onConfirm={async () => {
              const { id, label } = picked;
              try {
                await onDelete(id!);
                setChoice('');
                tell({ kind: 'ok', text: `Design “${label}” deleted.` });
                // Its button goes with it: back to the list of designs.
                focusLater(byId('library-pick'));
              } catch (err) {
                tell({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
              }
            }}
          />
        ) : null}
      </div>
      {onSave ? (
        <div class="inline-form">
          <div class="field">
            <label for="library-name">Save the current design as</label>
            <input id="library-name" type="text" maxLength={80} value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </div>
          <button type="button" class="btn btn--secondary" disabled={name.trim() === ''} onClick={() => void save()}>
            Save design
          </button>
        </div>
      ) : null}
      <div class="button-row">
        <button type="button" class="btn btn--secondary" onClick={exportDesign}>
          Export design (JSON)
        </button>
        <label class="btn btn--secondary file-button">
          Import design (JSON)
          <input type="file" accept="application/json,.json" class="visually-hidden" onChange={(e) => void importFile(e)} />
        </label>
      </div>
      {message ? <p class={message.kind === 'error' ? 'error' : 'muted small'}>{message.text}</p> : null}
    </section>
  );
}
