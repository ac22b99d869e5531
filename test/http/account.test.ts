import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, type SignedIn, inviteMember, sessionFrom, setupOwner, signIn } from '../support/sessions.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';
import { SIGNUPS_PER_HOUR } from '../../src/http/routes/onboarding.ts';

let t: TestApp;
let owner: SignedIn;
beforeEach(async () => {
  t = await makeTestApp({ SIGNUP: 'open' });
  owner = await setupOwner(t, 'owner@example.com', 'Acme');
});
afterEach(() => t.close());

const tokenOf = (url: string) => url.split('/').pop() as string;
const item = { title: 'Menu', url: 'https://example.com/menu' };

describe('invites and members', () => {
  it('an invite may say whom it is for: listed with it and shown on its page, not checked when used (#32)', async () => {
    const made = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer', email: 'ada@example.com' } });
    expect(made.statusCode).toBe(201);
    expect(made.json().invite.email).toBe('ada@example.com');
    const plain = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } });
    expect(plain.json().invite.email).toBeNull();
    const listed = (await owner.request({ method: 'GET', url: '/v1/account/invites' })).json().invites;
    expect(listed.map((i: { email: string | null }) => i.email).sort()).toEqual(['ada@example.com', null].sort());
    const preview = await t.request({ method: 'GET', url: `/v1/invites/${tokenOf(made.json().url)}` });
    expect(preview.json()).toMatchObject({ role: 'viewer', email: 'ada@example.com' });
    const bad = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer', email: 12 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/^email: /);
    // A label: someone else may still use the link.
    const accepted = await t.request({
      method: 'POST',
      url: `/v1/invites/${tokenOf(made.json().url)}/accept`,
      payload: { email: 'someone@example.com', password: PASSWORD },
    });
    expect(accepted.statusCode).toBe(201);
  });

  it('invites by a one-time link: the new member signs in with the invited role', async () => {
    const inv = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'editor' } });
    expect(inv.statusCode).toBe(201);
    const { url, invite } = inv.json();
    expect(url).toMatch(/^http:\/\/qr\.test\/app\/invite\/[A-Za-z0-9_-]{43}$/);
    expect((await owner.request({ method: 'GET', url: '/v1/account/invites' })).json().invites).toEqual([invite]);
    const preview = await t.request({ method: 'GET', url: `/v1/invites/${tokenOf(url)}` });
    expect(preview.json()).toMatchObject({ accountName: 'Acme', role: 'editor' });
    const accepted = await t.request({
      method: 'POST',
      url: `/v1/invites/${tokenOf(url)}/accept`,
      payload: { email: 'ed@example.com', password: PASSWORD },
    });
    expect(accepted.statusCode).toBe(201);
    expect(accepted.json()).toMatchObject({ account: { name: 'Acme', role: 'editor' }, scopes: ['qr:read', 'qr:write'] });
    const twice = await t.request({
      method: 'POST',
      url: `/v1/invites/${tokenOf(url)}/accept`,
      payload: { email: 'x@example.com', password: PASSWORD },
    });
    expect(twice.statusCode).toBe(410);
    expect((await owner.request({ method: 'GET', url: '/v1/account/invites' })).json().invites).toEqual([]);
    const members = (await owner.request({ method: 'GET', url: '/v1/account/members' })).json().members;
    expect(members.map((m: { email: string; role: string }) => `${m.email}:${m.role}`)).toEqual([
      'owner@example.com:owner',
      'ed@example.com:editor',
    ]);
    await signIn(t, 'ed@example.com');
  });

  it('lets an existing user join another account with their own password, and switch between accounts', async () => {
    const other = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Beta', email: 'b@example.com', password: PASSWORD } }),
    );
    const inv = await other.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } });
    const token = tokenOf(inv.json().url);
    const wrong = await t.request({
      method: 'POST',
      url: `/v1/invites/${token}/accept`,
      payload: { email: 'owner@example.com', password: 'not my password' },
    });
    expect(wrong.statusCode).toBe(401);
    const joined = sessionFrom(
      t,
      await t.request({ method: 'POST', url: `/v1/invites/${token}/accept`, payload: { email: 'owner@example.com', password: PASSWORD } }),
    );
    const me = (await joined.request({ method: 'GET', url: '/v1/session' })).json();
    expect(me.account).toMatchObject({ name: 'Beta', role: 'viewer' });
    expect(me.accounts.map((a: { name: string }) => a.name)).toEqual(['Acme', 'Beta']);
    const acme = me.accounts.find((a: { name: string }) => a.name === 'Acme');
    const switched = await joined.request({ method: 'PUT', url: '/v1/session/account', payload: { accountId: acme.id } });
    expect(switched.json().account).toMatchObject({ name: 'Acme', role: 'owner' });
    const gamma = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Gamma', email: 'g@example.com', password: PASSWORD } }),
    );
    const notMine = await owner.request({ method: 'PUT', url: '/v1/session/account', payload: { accountId: gamma.accountId } });
    expect(notMine.statusCode).toBe(404);
  });

  it('acts in the account a tab names, whatever account another tab switched the session to', async () => {
    const beta = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Beta', email: 'b@example.com', password: PASSWORD } }),
    );
    const inv = await beta.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } });
    const joined = sessionFrom(
      t,
      await t.request({
        method: 'POST',
        url: `/v1/invites/${tokenOf(inv.json().url)}/accept`,
        payload: { email: 'owner@example.com', password: PASSWORD },
      }),
    );
    const me = (await joined.request({ method: 'GET', url: '/v1/session' })).json();
    const acme = me.accounts.find((a: { name: string }) => a.name === 'Acme').id as string;
    // The session is in Beta (viewer), as another tab left it; this tab shows Acme (owner).
    expect(me.account).toMatchObject({ name: 'Beta', role: 'viewer' });
    const inAcme = { 'x-qrtrack-account': acme };
    expect((await joined.request({ method: 'GET', url: '/v1/session', headers: inAcme })).json().account).toMatchObject({
      name: 'Acme',
      role: 'owner',
    });
    const created = await joined.request({ method: 'POST', url: '/v1/qr', payload: item, headers: inAcme });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().item.id as string;
    expect((await owner.request({ method: 'GET', url: `/v1/qr/${id}` })).statusCode).toBe(200);
    expect((await beta.request({ method: 'GET', url: `/v1/qr/${id}` })).statusCode).toBe(404);
    // Without the header the session's account applies: Beta, where this user only views.
    const asViewer = await joined.request({ method: 'POST', url: '/v1/qr', payload: item });
    expect(asViewer.statusCode).toBe(403);
    expect(asViewer.json().error).toBe('insufficient scope: requires qr:write (your role is viewer)');
    expect((await joined.request({ method: 'GET', url: '/v1/account/members', headers: inAcme })).json().members).toHaveLength(1);
    // Links name the account as ?account=: images and CSV downloads.
    expect((await joined.request({ method: 'GET', url: `/v1/qr/${id}/image.svg?account=${acme}` })).statusCode).toBe(200);
    expect((await joined.request({ method: 'GET', url: `/v1/qr/${id}/image.svg` })).statusCode).toBe(404);
    expect((await joined.request({ method: 'GET', url: `/v1/qr/${id}/stats.csv?account=${acme}` })).statusCode).toBe(200);
    // An account the user is not (or no longer) in: refused, but the session answer falls back
    // to the session's account so the page can start over.
    const gamma = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Gamma', email: 'g@example.com', password: PASSWORD } }),
    );
    for (const other of [gamma.accountId, 'not-an-id']) {
      const refused = await joined.request({ method: 'POST', url: '/v1/qr', payload: item, headers: { 'x-qrtrack-account': other } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatch(/^account: you are no longer a member of the account this page shows/);
      expect((await joined.request({ method: 'GET', url: '/v1/qr', headers: { 'x-qrtrack-account': other } })).statusCode).toBe(403);
      expect(
        (await joined.request({ method: 'GET', url: '/v1/session', headers: { 'x-qrtrack-account': other } })).json().account,
      ).toMatchObject({ name: 'Beta' });
    }
    expect((await joined.request({ method: 'GET', url: `/v1/qr/${id}/image.svg?account=not-an-id` })).statusCode).toBe(403);
    // The session's own routes go on for a tab whose account is gone: it can switch and sign out.
    const gone = { 'x-qrtrack-account': gamma.accountId };
    expect(
      (await joined.request({ method: 'PUT', url: '/v1/session/account', payload: { accountId: acme }, headers: gone })).statusCode,
    ).toBe(200);
    expect((await joined.request({ method: 'DELETE', url: '/v1/session', headers: gone })).statusCode).toBe(200);
    expect((await joined.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
  });

  it('changes roles, and never lets the last owner be demoted or removed', async () => {
    const ed = await inviteMember(t, owner, 'ed@example.com', 'editor');
    const demote = await owner.request({ method: 'PATCH', url: `/v1/account/members/${owner.userId}`, payload: { role: 'viewer' } });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error).toMatch(/^role: the account needs at least one owner/);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${owner.userId}` })).statusCode).toBe(409);
    const promote = await owner.request({ method: 'PATCH', url: `/v1/account/members/${ed.userId}`, payload: { role: 'owner' } });
    expect(promote.json().member).toMatchObject({ email: 'ed@example.com', role: 'owner' });
    expect(
      (await owner.request({ method: 'PATCH', url: `/v1/account/members/${owner.userId}`, payload: { role: 'viewer' } })).statusCode,
    ).toBe(200);
    const bad = await ed.request({ method: 'PATCH', url: `/v1/account/members/${owner.userId}`, payload: { role: 'king' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('role: must be one of owner, editor, viewer');
  });

  it('removes a member: their session in the account ends at once', async () => {
    const ed = await inviteMember(t, owner, 'ed@example.com', 'editor');
    expect((await ed.request({ method: 'GET', url: '/v1/qr' })).statusCode).toBe(200);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${ed.userId}` })).statusCode).toBe(200);
    expect((await ed.request({ method: 'GET', url: '/v1/qr' })).statusCode).toBe(401);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${ed.userId}` })).statusCode).toBe(404);
  });

  it('withdraws an invite: its link stops working', async () => {
    const inv = (await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } })).json();
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/invites/${inv.invite.id}` })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/v1/invites/${tokenOf(inv.url)}` })).statusCode).toBe(410);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/invites/${inv.invite.id}` })).statusCode).toBe(404);
  });

  it('resets a member’s password with a one-time link from the owner', async () => {
    const vi = await inviteMember(t, owner, 'vi@example.com', 'viewer');
    const link = await owner.request({ method: 'POST', url: `/v1/account/members/${vi.userId}/reset-link` });
    expect(link.statusCode).toBe(201);
    const token = tokenOf(link.json().url);
    expect(link.json().url).toContain('/app/reset/');
    expect((await t.request({ method: 'GET', url: `/v1/password-resets/${token}` })).json().email).toBe('vi@example.com');
    const weak = await t.request({ method: 'POST', url: `/v1/password-resets/${token}`, payload: { password: 'short' } });
    expect(weak.statusCode).toBe(400);
    expect(
      (await t.request({ method: 'POST', url: `/v1/password-resets/${token}`, payload: { password: 'a fresh password' } })).statusCode,
    ).toBe(200);
    expect((await vi.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: `/v1/password-resets/${token}`, payload: { password: 'another password' } })).statusCode,
    ).toBe(410);
    await signIn(t, 'vi@example.com', 'a fresh password');
  });
});

describe('reset links across accounts', () => {
  it('refuses a reset link for a member who also belongs to an account the owner does not own (it would take that account over)', async () => {
    // The victim owns Victim Co and joins Acme as a viewer.
    const victim = sessionFrom(
      t,
      await t.request({
        method: 'POST',
        url: '/v1/signup',
        payload: { accountName: 'Victim Co', email: 'v@example.com', password: PASSWORD },
      }),
    );
    const inv = await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } });
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/v1/invites/${tokenOf(inv.json().url)}/accept`,
          payload: { email: 'v@example.com', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(201);
    const refused = await owner.request({ method: 'POST', url: `/v1/account/members/${victim.userId}/reset-link` });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(/^userId: this member also belongs to an account you do not own/);
    // The victim's password still works, and no link was made.
    await signIn(t, 'v@example.com');
    // Once the owner owns every account the member is in (here: the member leaves Victim Co's
    // ownership to them), the link is theirs to make again.
    const victimCo = (await victim.request({ method: 'GET', url: '/v1/session' })).json().account;
    const bossInvite = await victim.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'owner' } });
    await t.request({
      method: 'POST',
      url: `/v1/invites/${tokenOf(bossInvite.json().url)}/accept`,
      payload: { email: 'owner@example.com', password: PASSWORD },
    });
    expect(victimCo.name).toBe('Victim Co');
    expect((await owner.request({ method: 'POST', url: `/v1/account/members/${victim.userId}/reset-link` })).statusCode).toBe(201);
  });

  it('refuses a reset link for oneself: a session alone cannot set its own password without the current one', async () => {
    const self = await owner.request({ method: 'POST', url: `/v1/account/members/${owner.userId}/reset-link` });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toMatch(/^userId: you cannot make a reset link for yourself; change your password .*PUT \/v1\/me\/password/);
    // The owner's password and session are untouched.
    expect((await owner.request({ method: 'GET', url: '/v1/session' })).statusCode).toBe(200);
    await signIn(t, 'owner@example.com');
  });
});

describe('links made earlier are checked again when they are used', () => {
  const resetLink = async (by: SignedIn, userId: string) => {
    const res = await by.request({ method: 'POST', url: `/v1/account/members/${userId}/reset-link` });
    expect(res.statusCode, res.body).toBe(201);
    return tokenOf(res.json().url);
  };
  const useReset = (token: string) =>
    t.request({ method: 'POST', url: `/v1/password-resets/${token}`, payload: { password: 'attacker chosen pw' } });
  const expectWithdrawn = async (res: { statusCode: number; json(): { error: string } }, why: RegExp) => {
    expect(res.statusCode).toBe(410);
    expect(res.json().error).toMatch(/^token: this link was withdrawn: /);
    expect(res.json().error).toMatch(why);
  };

  it('a reset link stops when its user has since joined an account its maker does not own', async () => {
    const ed = await inviteMember(t, owner, 'ed@example.com', 'editor');
    const token = await resetLink(owner, ed.userId);
    // Beta's owner makes the editor an owner of Beta.
    const beta = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Beta', email: 'b@example.com', password: PASSWORD } }),
    );
    const inv = await beta.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'owner' } });
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/v1/invites/${tokenOf(inv.json().url)}/accept`,
          payload: { email: 'ed@example.com', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(201);
    await expectWithdrawn(
      await t.request({ method: 'GET', url: `/v1/password-resets/${token}` }),
      /belongs to an account its maker does not own/,
    );
    await expectWithdrawn(await useReset(token), /belongs to an account its maker does not own/);
    await signIn(t, 'ed@example.com'); // the password is unchanged
  });

  it('a removed or demoted owner’s reset links and invites stop working', async () => {
    const co = await inviteMember(t, owner, 'co@example.com', 'owner');
    const resetOwner = await resetLink(co, owner.userId);
    const invite = tokenOf((await co.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'owner' } })).json().url);
    const co2 = await inviteMember(t, owner, 'co2@example.com', 'owner');
    const invite2 = tokenOf((await co2.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'editor' } })).json().url);
    expect((await owner.request({ method: 'GET', url: '/v1/account/invites' })).json().invites).toHaveLength(2);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${co.userId}` })).statusCode).toBe(200);
    expect(
      (await owner.request({ method: 'PATCH', url: `/v1/account/members/${co2.userId}`, payload: { role: 'viewer' } })).statusCode,
    ).toBe(200);
    expect((await useReset(resetOwner)).statusCode).toBe(410);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/v1/invites/${invite}/accept`,
          payload: { email: 'comeback@example.com', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(410);
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/v1/invites/${invite2}/accept`,
          payload: { email: 'friend@example.com', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(410);
    expect((await owner.request({ method: 'GET', url: '/v1/account/invites' })).json().invites).toEqual([]);
    await signIn(t, 'owner@example.com');
  });

  it('a link whose maker lost the role without the withdrawal (an older server did not withdraw) is refused when used', async () => {
    const co = await inviteMember(t, owner, 'co@example.com', 'owner');
    const invite = tokenOf((await co.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'owner' } })).json().url);
    // Demoted behind the server's back, as a server before this check left it.
    await t.db.kysely.updateTable('memberships').set({ role: 'viewer' }).where('user_id', '=', co.userId).execute();
    await expectWithdrawn(await t.request({ method: 'GET', url: `/v1/invites/${invite}` }), /no longer owns the account/);
    await expectWithdrawn(
      await t.request({
        method: 'POST',
        url: `/v1/invites/${invite}/accept`,
        payload: { email: 'comeback@example.com', password: PASSWORD },
      }),
      /no longer owns the account/,
    );
  });

  it('a reset link for a member who has left the account stops', async () => {
    const vi = await inviteMember(t, owner, 'vi@example.com', 'viewer');
    const token = await resetLink(owner, vi.userId);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/members/${vi.userId}` })).statusCode).toBe(200);
    expect((await useReset(token)).statusCode).toBe(410);
  });

  it('a new password, a used reset link and signing out everywhere end the user’s other reset links', async () => {
    const vi = await inviteMember(t, owner, 'vi@example.com', 'viewer');
    const [a, b] = [await resetLink(owner, vi.userId), await resetLink(owner, vi.userId)];
    expect(
      (await t.request({ method: 'POST', url: `/v1/password-resets/${a}`, payload: { password: 'a fresh password' } })).statusCode,
    ).toBe(200);
    expect((await useReset(b)).statusCode).toBe(410);
    const vi2 = await signIn(t, 'vi@example.com', 'a fresh password');
    const c = await resetLink(owner, vi.userId);
    const changed = await vi2.request({
      method: 'PUT',
      url: '/v1/me/password',
      payload: { currentPassword: 'a fresh password', newPassword: 'my own new password' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await useReset(c)).statusCode).toBe(410);
    const d = await resetLink(owner, vi.userId);
    expect((await vi2.request({ method: 'DELETE', url: '/v1/sessions' })).statusCode).toBe(200);
    expect((await useReset(d)).statusCode).toBe(410);
    await signIn(t, 'vi@example.com', 'my own new password');
  });
});

describe('roles on the QR routes', () => {
  it('a viewer reads but cannot create; an editor creates but cannot manage keys or members', async () => {
    const vi = await inviteMember(t, owner, 'vi@example.com', 'viewer');
    const ed = await inviteMember(t, owner, 'ed@example.com', 'editor');
    const created = await ed.request({ method: 'POST', url: '/v1/qr', payload: item });
    expect(created.statusCode).toBe(201);
    const denied = await vi.request({ method: 'POST', url: '/v1/qr', payload: item });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe('insufficient scope: requires qr:write (your role is viewer)');
    expect((await vi.request({ method: 'GET', url: `/v1/qr/${created.json().item.id}` })).statusCode).toBe(200);
    for (const [method, url] of [
      ['GET', '/v1/account/keys'],
      ['POST', '/v1/account/invites'],
      ['GET', '/v1/account/invites'],
    ] as const) {
      const res = await ed.request({ method, url, payload: method === 'POST' ? { role: 'owner' } : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toMatch(/^role: only an owner/);
    }
    expect((await ed.request({ method: 'PATCH', url: `/v1/account/members/${vi.userId}`, payload: { role: 'owner' } })).statusCode).toBe(
      403,
    );
    expect((await vi.request({ method: 'GET', url: '/v1/account/members' })).statusCode).toBe(200);
  });
});

describe('cross-account isolation', () => {
  it('a member of one account never sees another account’s codes, keys, members or invites', async () => {
    const other = sessionFrom(
      t,
      await t.request({ method: 'POST', url: '/v1/signup', payload: { accountName: 'Beta', email: 'b@example.com', password: PASSWORD } }),
    );
    const mine = (await owner.request({ method: 'POST', url: '/v1/qr', payload: item })).json().item;
    const key = (await owner.request({ method: 'POST', url: '/v1/account/keys', payload: { name: 'ci', scopes: ['qr:read'] } })).json().key;
    const inv = (await owner.request({ method: 'POST', url: '/v1/account/invites', payload: { role: 'viewer' } })).json().invite;
    expect((await other.request({ method: 'GET', url: `/v1/qr/${mine.id}` })).statusCode).toBe(404);
    expect((await other.request({ method: 'GET', url: '/v1/qr' })).json().items).toEqual([]);
    expect((await other.request({ method: 'GET', url: '/v1/account/keys' })).json().keys).toEqual([]);
    expect((await other.request({ method: 'DELETE', url: `/v1/account/keys/${key.id}` })).statusCode).toBe(404);
    expect((await other.request({ method: 'DELETE', url: `/v1/account/invites/${inv.id}` })).statusCode).toBe(404);
    expect((await other.request({ method: 'DELETE', url: `/v1/account/members/${owner.userId}` })).statusCode).toBe(404);
    expect((await other.request({ method: 'POST', url: `/v1/account/members/${owner.userId}/reset-link` })).statusCode).toBe(404);
    const members = (await other.request({ method: 'GET', url: '/v1/account/members' })).json().members;
    expect(members.map((m: { email: string }) => m.email)).toEqual(['b@example.com']);
  });
});

describe('API keys from the account area', () => {
  it('creates a key shown once, lists it with its creator, the key works on /v1, revoking it gives 401', async () => {
    const res = await owner.request({
      method: 'POST',
      url: '/v1/account/keys',
      payload: { name: 'Website', scopes: ['qr:read', 'qr:write'] },
    });
    expect(res.statusCode).toBe(201);
    const { key, secret } = res.json();
    expect(secret).toMatch(/^qrt_[A-Za-z0-9]{40}$/);
    expect(secret.startsWith(key.prefix)).toBe(true);
    expect(key).toMatchObject({
      name: 'Website',
      scopes: ['qr:read', 'qr:write'],
      createdBy: { email: 'owner@example.com' },
      lastUsedAt: null,
      revokedAt: null,
    });
    expect((await t.request({ method: 'POST', url: '/v1/qr', key: secret, payload: item })).statusCode).toBe(201);
    const list = (await owner.request({ method: 'GET', url: '/v1/account/keys' })).json().keys;
    expect(list).toHaveLength(1);
    expect(list[0].lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(secret);
    expect((await owner.request({ method: 'DELETE', url: `/v1/account/keys/${key.id}` })).statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/v1/qr', key: secret });
    expect(after.statusCode).toBe(401);
    expect((await owner.request({ method: 'GET', url: '/v1/account/keys' })).json().keys[0].revokedAt).not.toBeNull();
  });

  it('names every bad field of a new key', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: '', scopes: ['qr:read'] }, 'name: must be a name of 1 to 80 characters'],
      [{ name: 'k', scopes: [] }, 'scopes: must list one or more of qr:read, qr:write, webhooks:read, webhooks:write'],
      [{ name: 'k', scopes: ['qr:read', 'qr:read'] }, 'scopes: must list one or more of qr:read, qr:write, webhooks:read, webhooks:write'],
      [{ name: 'k' }, 'scopes: is required'],
    ];
    for (const [payload, error] of cases) {
      const res = await owner.request({ method: 'POST', url: '/v1/account/keys', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error });
    }
  });

  it('an API key cannot mint keys, members or invites; no session at all is 401', async () => {
    const key = await t.key('Acme');
    for (const [method, url] of [
      ['GET', '/v1/account/keys'],
      ['POST', '/v1/account/keys'],
      ['POST', '/v1/account/invites'],
      ['GET', '/v1/account/members'],
      ['GET', '/v1/session'],
    ] as const) {
      const res = await t.request({ method, url, key, payload: method === 'POST' ? { name: 'x', scopes: ['qr:read'] } : undefined });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error).toMatch(/API keys cannot manage keys/);
      const anon = await t.request({ method, url });
      expect(anon.statusCode, url).toBe(401);
    }
  });
});

describe('sign-up modes', () => {
  it('refuses sign-up by default (SIGNUP=invite)', async () => {
    const closed = await makeTestApp();
    try {
      const res = await closed.request({
        method: 'POST',
        url: '/v1/signup',
        payload: { accountName: 'X', email: 'x@example.com', password: PASSWORD },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatch(/^signup: this instance is by invitation only/);
    } finally {
      await closed.close();
    }
  });

  it('open sign-up refuses a taken account name or email with 409', async () => {
    const taken = await t.request({
      method: 'POST',
      url: '/v1/signup',
      payload: { accountName: 'Acme', email: 'new@example.com', password: PASSWORD },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatch(/^accountName: is already taken/);
    const email = await t.request({
      method: 'POST',
      url: '/v1/signup',
      payload: { accountName: 'Gamma', email: 'owner@example.com', password: PASSWORD },
    });
    expect(email.statusCode).toBe(409);
    expect(email.json().error).toMatch(/^email: is already registered/);
    expect(await t.services.keys.findAccountId('Gamma')).toBeNull();
  });

  it(`holds one address to ${SIGNUPS_PER_HOUR} sign-ups an hour; another address may still sign up`, async () => {
    const signUp = (i: number, remoteAddress: string) =>
      t.request({
        method: 'POST',
        url: '/v1/signup',
        remoteAddress,
        payload: { accountName: `Spam ${i}`, email: `spam${i}@example.com`, password: PASSWORD },
      });
    for (let i = 0; i < SIGNUPS_PER_HOUR; i++) expect((await signUp(i, '198.51.100.7')).statusCode).toBe(201);
    const limited = await signUp(99, '198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/^too many sign-ups from this address: 10 an hour/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
    expect(await t.services.keys.findAccountId('Spam 99')).toBeNull();
    expect((await signUp(100, '198.51.100.8')).statusCode).toBe(201);
  });
});

describe('OpenAPI', () => {
  it('documents every account route with its schemas', async () => {
    const doc = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json();
    for (const path of [
      '/v1/session',
      '/v1/sessions',
      '/v1/setup',
      '/v1/signup',
      '/v1/instance',
      '/v1/account',
      '/v1/account/keys',
      '/v1/account/keys/{id}',
      '/v1/account/members',
      '/v1/account/members/{userId}',
      '/v1/account/invites',
      '/v1/invites/{token}/accept',
      '/v1/password-resets/{token}',
      '/v1/me/password',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/v1/account/keys'].post.requestBody).toBeDefined();
    expect(doc.paths['/v1/account/keys'].post.responses['201']).toBeDefined();
  });
});
