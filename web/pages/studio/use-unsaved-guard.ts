// While the draft has unsaved changes, leaving asks first: in-app navigation through the
// router's guard, closing or reloading the tab through the browser's own question.
import { useEffect } from 'preact/hooks';
import { setLeaveGuard } from '../../router.ts';

export function useUnsavedGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const ask = () => confirm('You have unsaved changes. Leave this page and lose them?');
    const onUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    addEventListener('beforeunload', onUnload);
    const remove = setLeaveGuard(ask);
    return () => {
      removeEventListener('beforeunload', onUnload);
      remove();
    };
  }, [dirty]);
}
