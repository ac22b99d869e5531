// The short link, shown without its scheme, and a button that copies the full link. When the
// browser refuses the clipboard (plain http on a LAN address, a denied permission), the full
// link is put in a field, focused and selected, so it can be copied by hand; both outcomes
// are said aloud.
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { announce, useFocusLater } from '../../components/announce.ts';

export function CopyLink({ url, title, id }: { url: string; title: string; id: string }) {
  const [copied, setCopied] = useState(false);
  /** The clipboard was refused: the link is offered selected in a field instead. */
  const [byHand, setByHand] = useState(false);
  const focusLater = useFocusLater();
  const fieldId = `copy-${id}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setByHand(false);
      setCopied(true);
      announce('Short link copied.');
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setByHand(true);
      announce('The browser did not allow copying. The link is selected: copy it yourself.');
      focusLater(() => document.getElementById(fieldId));
    }
  };
  // Selected on focus too, so coming back to the field with Tab gives the whole link again.
  const select = (e: JSX.TargetedFocusEvent<HTMLInputElement>) => e.currentTarget.select();
  return (
    <span class={`copy-link${byHand ? ' copy-link--by-hand' : ''}`}>
      {byHand ? (
        <>
          <input
            id={fieldId}
            class="copy-link__field"
            type="text"
            readOnly
            value={url}
            aria-label={`Short link of ${title}`}
            aria-describedby={`${fieldId}-note`}
            onFocus={select}
          />
          <span class="copy-link__note small" id={`${fieldId}-note`}>
            Copying was not allowed: copy the selected link yourself.
          </span>
        </>
      ) : (
        <code class="copy-link__url">{url.replace(/^https?:\/\//, '')}</code>
      )}
      <button
        type="button"
        class="btn btn--secondary btn--small"
        onClick={copy}
        aria-label={`${copied ? 'Copied' : 'Copy'} the short link of ${title}`}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
