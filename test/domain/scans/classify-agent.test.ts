import { describe, expect, it } from 'vitest';
import { classifyUserAgent, isBotAgent } from '../../../src/domain/scans/classify-agent.ts';
import { LruCache } from '../../../src/domain/scans/lru-cache.ts';
import { BOT_AGENTS, HUMAN_AGENTS } from './user-agents.ts';

describe('classifyUserAgent', () => {
  it.each(HUMAN_AGENTS)('classifies $name as a human $device on $os with $browser', ({ ua, device, os, browser }) => {
    expect(classifyUserAgent(ua)).toEqual({ device, os, browser, isBot: false });
  });

  it.each(BOT_AGENTS)('flags $name as a bot', ({ ua, device, os, browser }) => {
    expect(classifyUserAgent(ua)).toEqual({ device, os, browser, isBot: true });
  });

  it('flags link-preview crawlers even without isbot', () => {
    for (const ua of [
      'WhatsApp/2.23.20.0',
      'Slackbot-LinkExpanding 1.0',
      'Slack-ImgProxy',
      'TelegramBot (like TwitterBot)',
      'facebookexternalhit/1.1',
      'Facebot',
      'Twitterbot/1.0',
      'LinkedInBot/1.0',
      'Discordbot/2.0',
    ]) {
      expect(isBotAgent(ua), ua).toBe(true);
    }
  });

  it('counts a missing or blank User-Agent as a bot of class other', () => {
    for (const ua of [undefined, '', '   ']) {
      expect(classifyUserAgent(ua)).toEqual({ device: 'other', os: null, browser: null, isBot: true });
    }
  });

  it('names Mobile Safari and desktop Safari alike', () => {
    const [iphone, mac] = [HUMAN_AGENTS[0], HUMAN_AGENTS.find((a) => a.name === 'Safari macOS')];
    expect(classifyUserAgent(iphone?.ua).browser).toBe(classifyUserAgent(mac?.ua).browser);
  });

  it('puts consoles, TVs and watches in other', () => {
    const tv = 'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36';
    const xbox =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edge/44.18363.8131';
    expect(classifyUserAgent(tv).device).toBe('other');
    expect(classifyUserAgent(xbox).device).toBe('other');
  });

  it('answers an unknown browser-like agent with other and nulls, not a bot', () => {
    expect(classifyUserAgent('Mozilla/5.0 (Unknown) SomethingNew/1.0 Gecko')).toEqual({
      device: 'other',
      os: null,
      browser: null,
      isBot: false,
    });
  });

  it('flags a bare product/version agent, as isbot does', () => {
    expect(classifyUserAgent('SomethingNew/1.0').isBot).toBe(true);
  });

  it('returns the same frozen result for a repeated UA', () => {
    const ua = HUMAN_AGENTS[0]?.ua;
    const first = classifyUserAgent(ua);
    expect(classifyUserAgent(ua)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('copes with an absurdly long UA quickly', () => {
    const ua = 'Mozilla/5.0 ' + '(a; '.repeat(50_000);
    // CPU time, not wall time, so a loaded machine does not fail it; a backtracking pattern
    // would take seconds here, a linear parse a few milliseconds.
    const started = process.cpuUsage();
    expect(classifyUserAgent(ua).device).toBe('other');
    const spent = process.cpuUsage(started);
    expect((spent.user + spent.system) / 1000).toBeLessThan(500);
  });
});

describe('LruCache', () => {
  it('keeps at most its bound, evicting the least recently used', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now newer than b
    lru.set('c', 3);
    expect(lru.size).toBe(2);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
  });

  it('never evicts a key read at least once every half-bound inserts, and stays bounded', () => {
    const lru = new LruCache<string, number>(100);
    lru.set('hot', 0);
    for (let i = 0; i < 10_000; i++) {
      lru.set(`k${i}`, i);
      if (i % 49 === 0) expect(lru.get('hot')).toBe(0);
      expect(lru.size).toBeLessThanOrEqual(100);
    }
    expect(lru.get('k0')).toBeUndefined(); // a key never read again goes
    expect(lru.get('k9999')).toBe(9999);
  });
});
