// The short link, shown without its scheme, and a button that copies the full link.
import { useState } from 'preact/hooks';

export function CopyLink({ url, title }: { url: string; title: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard (plain http, an old browser): the link stays selectable as text.
    }
  };
  return (
    <span class="copy-link">
      <code class="copy-link__url">{url.replace(/^https?:\/\//, '')}</code>
      <button type="button" class="btn btn--secondary btn--small" onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} the short link of ${title}`}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span class="visually-hidden" aria-live="polite">
        {copied ? 'Short link copied' : ''}
      </span>
    </span>
  );
}
