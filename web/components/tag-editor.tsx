// A code's tags (or the tags to add to many): chips with a remove button, and a field that adds
// one on Enter or with Add, suggesting the account's tags. A tag is checked by the API's own rule.
import { useEffect, useState } from 'preact/hooks';
import { ValidationError } from '../../src/domain/errors.ts';
import { TAGS_PER_ITEM, normalizeTag } from '../../src/domain/qr-items/tags.ts';
import { type TagCount, api } from '../api.ts';
import { announce } from './announce.ts';

/** The account's tags, for suggestions; an empty list when they cannot be read. */
export function useAccountTags(): TagCount[] {
  const [tags, setTags] = useState<TagCount[]>([]);
  useEffect(() => void api.tags().then(setTags, () => undefined), []);
  return tags;
}

export function TagEditor({
  id,
  label,
  hint,
  tags,
  suggestions,
  onChange,
  max = TAGS_PER_ITEM,
}: {
  id: string;
  label: string;
  hint?: string;
  tags: string[];
  suggestions: readonly TagCount[];
  onChange: (tags: string[]) => void;
  max?: number;
}) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    if (text.trim() === '') return;
    try {
      const tag = normalizeTag(text, 'tag');
      if (tags.includes(tag)) {
        setText('');
        return;
      }
      if (tags.length >= max) {
        setError(`A code holds at most ${max} tags.`);
        return;
      }
      onChange([...tags, tag]);
      setText('');
      setError(null);
      announce(`Tag “${tag}” added.`);
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      const rule = err.message.replace(/^tag: /, '');
      setError(rule.charAt(0).toUpperCase() + rule.slice(1));
    }
  };
  const remove = (tag: string) => {
    onChange(tags.filter((t) => t !== tag));
    announce(`Tag “${tag}” removed.`);
  };
  const listId = `${id}-known`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field tag-editor${error ? ' field--invalid' : ''}`}>
      <label for={id}>
        {label}
        <span class="optional"> (optional)</span>
      </label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {tags.length > 0 ? (
        <ul class="tag-editor__tags" aria-label={`${label}: ${tags.length}`}>
          {tags.map((t) => (
            <li key={t} class="tag tag--removable">
              {t}
              <button type="button" class="tag__remove" aria-label={`Remove tag ${t}`} onClick={() => remove(t)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div class="tag-editor__add">
        <input
          id={id}
          type="text"
          value={text}
          list={listId}
          autocomplete="off"
          aria-describedby={describedBy}
          aria-invalid={error ? 'true' : undefined}
          onInput={(e) => (setText(e.currentTarget.value), setError(null))}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button type="button" class="btn btn--secondary" onClick={add}>
          Add tag
        </button>
      </div>
      <datalist id={listId}>
        {suggestions
          .filter((s) => !tags.includes(s.name))
          .map((s) => (
            <option key={s.name} value={s.name} />
          ))}
      </datalist>
      {error ? (
        <p class="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
