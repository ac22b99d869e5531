// Jobs waiting for a render worker, taken round-robin between accounts (each account's own in
// the order sent), so one account's many jobs wait behind each other and not in front of
// everyone else's.
export class FairQueue<T> {
  /** A Map keeps insertion order: an account served goes to the back. */
  private readonly byAccount = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  waitingOf(account: string): number {
    return this.byAccount.get(account)?.length ?? 0;
  }

  push(account: string, item: T): void {
    const list = this.byAccount.get(account);
    if (list) list.push(item);
    else this.byAccount.set(account, [item]);
    this.count++;
  }

  /** The next account's oldest item; that account then waits behind the others. */
  shift(): T | undefined {
    for (const [account, list] of this.byAccount) {
      const item = list.shift();
      this.byAccount.delete(account);
      if (list.length > 0) this.byAccount.set(account, list);
      if (item !== undefined) {
        this.count--;
        return item;
      }
    }
    return undefined;
  }

  remove(account: string, item: T): boolean {
    const list = this.byAccount.get(account);
    const at = list?.indexOf(item) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.byAccount.delete(account);
    this.count--;
    return true;
  }
}
