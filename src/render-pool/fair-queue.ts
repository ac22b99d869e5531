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

  /** The account with the most items waiting, and how many (ties: the one served longest ago). */
  heaviest(): { account: string; count: number } | undefined {
    let best: { account: string; count: number } | undefined;
    for (const [account, list] of this.byAccount) if (!best || list.length > best.count) best = { account, count: list.length };
    return best;
  }

  /** Takes `account`'s newest item out (the one it sent last). */
  popNewest(account: string): T | undefined {
    const list = this.byAccount.get(account);
    const item = list?.pop();
    if (item === undefined) return undefined;
    if (list?.length === 0) this.byAccount.delete(account);
    this.count--;
    return item;
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
