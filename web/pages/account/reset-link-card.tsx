import type { LinkView } from '../../api.ts';
import { Button, CopyField, Notice, When } from '../../components/ui.tsx';

/** A member's password-reset link an owner has just made, shown once, until Done. */
export interface ResetLink {
  userId: string;
  email: string;
  link: LinkView;
}

export function ResetLinkCard({ reset, onDone }: { reset: ResetLink; onDone: () => void }) {
  return (
    <div class="card created">
      <Notice id="reset-help">
        Send this link to {reset.email}. It sets a new password once, until <When iso={reset.link.expiresAt} />.
      </Notice>
      <CopyField id="reset-url" label={`Password reset link for ${reset.email}`} value={reset.link.url} describedBy="reset-help" />
      <Button variant="secondary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}
