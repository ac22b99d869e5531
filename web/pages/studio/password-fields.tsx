// A code behind a password: set one (8 to 128 characters), or, when the code has one (it is
// never read back), see that it is set, change it or remove it. Removal happens on save.
import { Field } from '../../components/field.tsx';
import { Button } from '../../components/ui.tsx';
import { PASSWORD_MAX, PASSWORD_MIN, type PasswordDraft } from './lifecycle-model.ts';

interface PasswordFieldsProps {
  password: PasswordDraft;
  hasPassword: boolean;
  error: string | undefined;
  onChange: (password: PasswordDraft, touched: string | null) => void;
}

export function PasswordFields({ password, hasPassword, error, onChange }: PasswordFieldsProps) {
  const hint = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Visitors type it before the code opens; it is stored only as a hash.`;
  return (
    <fieldset class="field schedule__group">
      <legend>Password</legend>
      {hasPassword && password.remove ? (
        <div class="password-state">
          <p class="password-state__text" id="password-state">
            The password will be removed when you save.
          </p>
          <Button variant="secondary" onClick={() => onChange({ value: '', remove: false }, null)}>
            Keep the password
          </Button>
        </div>
      ) : (
        <>
          {hasPassword ? (
            <div class="password-state">
              <p class="password-state__text" id="password-state">
                <span class="badge badge--on">Password set</span> Visitors need it to open the code.
              </p>
              <Button variant="secondary" onClick={() => onChange({ value: '', remove: true }, null)}>
                Remove the password
              </Button>
            </div>
          ) : null}
          <Field
            label={hasPassword ? 'New password' : 'Protect with a password'}
            name="password"
            type="password"
            autocomplete="new-password"
            value={password.value}
            maxLength={PASSWORD_MAX}
            hint={hint}
            error={error}
            onInput={(v) => onChange({ value: v, remove: false }, 'password')}
          />
        </>
      )}
    </fieldset>
  );
}
