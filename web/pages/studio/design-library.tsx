// Saved designs ("templates"): the built-in ones and the account's, applied with one click;
// the current design saved under a name; designs to and from JSON files.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { QrDesign } from '../../../src/domain/design-options.ts';
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
  const importFile = async (e: JSX.TargetedEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    try {
      const read = readDesignFile(await file.text());
      onApply(read.design);
      setMessage({ kind: 'ok', text: `Design “${read.name}” imported.` });
    } catch (err) {
      setMessage({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };
  const exportDesign = () => {
    const url = URL.createObjectURL(new Blob([designFile(title || 'Design', design)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileNameOf(title, 'design.json', 'design');
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  const save = async () => {
    if (!onSave) return;
    try {
      await onSave(name.trim());
      setMessage({ kind: 'ok', text: `Design “${name.trim()}” saved.` });
      setName('');
    } catch (err) {
      setMessage({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <section class="card library" aria-labelledby="library-h">
      <h2 id="library-h">Saved designs</h2>
      <div class="inline-form">
        <div class="field">
          <label for="library-pick">Start from a design</label>
          <select id="library-pick" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
            <option value="">Choose…</option>
            {all.map((d) => (
              <option key={d.key} value={d.key}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="btn btn--secondary" disabled={!picked} onClick={() => picked && onApply(picked.design)}>
          Use this design
        </button>
        {picked?.id !== undefined && onDelete ? (
          <button type="button" class="btn btn--link" onClick={() => void onDelete(picked.id!).then(() => setChoice(''))}>
            Delete it
          </button>
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
      {message ? (
        <p class={message.kind === 'error' ? 'error' : 'muted small'} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
