// User-Agent → device class, OS, browser, bot flag. On the redirect hot path, so
// results are memoised per UA string in a bounded LRU (phones repeat the same few UAs).
import UAParser from 'ua-parser-js';
import { isbot } from 'isbot';
import { LruCache } from './lru-cache.ts';

export type DeviceClass = 'mobile' | 'tablet' | 'desktop' | 'other';

export interface AgentClass {
  device: DeviceClass;
  os: string | null;
  browser: string | null;
  isBot: boolean;
}

/**
 * Link-preview fetchers of chat and social apps. `isbot` knows them today, but a preview
 * counted as a scan is the error owners notice first, so we pin them here too.
 * Patterns are narrow on purpose: Slack's and Discord's desktop apps, Telegram's and
 * Facebook's in-app browsers are humans and must not match.
 */
const LINK_PREVIEW_AGENTS =
  /^whatsapp\/|slackbot|slack-imgproxy|telegrambot|facebookexternalhit|facebot|facebookcatalog|twitterbot|linkedinbot|discordbot|skypeuripreview|pinterestbot|redditbot|embedly|iframely|vkshare|bluesky cardyb|mastodon\//i;

/**
 * Scripted and headless clients. A phone camera always opens a real browser, so these
 * are never a person scanning a printed code; we count them as bots.
 */
const SCRIPTED_CLIENTS =
  /^(?:curl|wget|python-requests|python-urllib|python-httpx|aiohttp|go-http-client|okhttp|axios|node-fetch|undici|node|java|apache-httpclient|libwww-perl|ruby|php|postmanruntime|insomnia|httpie)\b|headlesschrome|phantomjs|puppeteer|playwright|selenium|lighthouse/i;

/** Longer UAs are cut before parsing and caching: real ones are far shorter, and this bounds work and memory. */
const MAX_UA_LENGTH = 512;
const CACHE_SIZE = 1000;

const OS_NAMES: Readonly<Record<string, string>> = {
  'Mac OS': 'macOS',
  'Chromium OS': 'ChromeOS',
};

/** Distributions are folded into Linux: the owner wants "Linux desktop", not a distro census. */
const LINUX_DISTRIBUTIONS = new Set([
  'Arch',
  'CentOS',
  'Debian',
  'Deepin',
  'elementary OS',
  'Fedora',
  'Gentoo',
  'Kubuntu',
  'Linpus',
  'Linspire',
  'Mageia',
  'Mandriva',
  'Manjaro',
  'Mint',
  'PCLinuxOS',
  'Raspbian',
  'RedHat',
  'Sabayon',
  'Slackware',
  'SUSE',
  'openSUSE',
  'Ubuntu',
  'Xubuntu',
  'Zenwalk',
  'Knoppix',
  'VectorLinux',
  'Linux',
]);

const DESKTOP_OSES = new Set(['Windows', 'macOS', 'Linux', 'ChromeOS', 'FreeBSD', 'OpenBSD', 'NetBSD', 'Solaris']);

/** One name per browser, whatever its platform: "Mobile Safari" and "Safari" are both Safari. */
const BROWSER_NAMES: Readonly<Record<string, string>> = {
  'Mobile Safari': 'Safari',
  'Mobile Firefox': 'Firefox',
  'Mobile Chrome': 'Chrome',
  'Samsung Browser': 'Samsung Internet',
  'Chrome WebView': 'Android WebView',
  'Chrome Headless': 'Headless Chrome',
  'Opera Mobi': 'Opera',
  Line: 'LINE',
  KAKAOTALK: 'KakaoTalk',
  NAVER: 'Naver',
  UCBrowser: 'UC Browser',
  GSA: 'Google App',
  Twitter: 'X',
};

const parser = new UAParser();
const cache = new LruCache<string, AgentClass>(CACHE_SIZE);

/**
 * Classifies a User-Agent header. A missing or blank UA counts as a bot: every browser a
 * camera app opens sends one, so its absence means a script.
 */
export function classifyUserAgent(ua: string | undefined): AgentClass {
  const key = (ua ?? '').trim().slice(0, MAX_UA_LENGTH);
  const hit = cache.get(key);
  if (hit) return hit;
  const result = Object.freeze(classifyUncached(key));
  cache.set(key, result);
  return result;
}

function classifyUncached(ua: string): AgentClass {
  if (ua === '') return { device: 'other', os: null, browser: null, isBot: true };
  const parsed = parser.setUA(ua).getResult();
  const os = osName(parsed.os.name);
  return {
    device: deviceClass(parsed.device.type, os, ua),
    os,
    browser: browserName(parsed.browser.name),
    isBot: isBotAgent(ua),
  };
}

export function isBotAgent(ua: string): boolean {
  return isbot(ua) || LINK_PREVIEW_AGENTS.test(ua) || SCRIPTED_CLIENTS.test(ua);
}

function osName(name: string | undefined): string | null {
  if (!name) return null;
  if (LINUX_DISTRIBUTIONS.has(name)) return 'Linux';
  return OS_NAMES[name] ?? name;
}

function browserName(name: string | undefined): string | null {
  if (!name) return null;
  return BROWSER_NAMES[name] ?? name;
}

/** The parser's type when it has one; else the OS decides (desktops carry no device type). */
function deviceClass(type: string | undefined, os: string | null, ua: string): DeviceClass {
  if (type === 'mobile' || type === 'tablet') return type;
  if (type !== undefined) return 'other'; // console, smarttv, wearable, embedded, xr
  if (os === 'iOS') return 'mobile';
  // Android convention: phones say "Mobile", tablets do not.
  if (os === 'Android') return /\bmobile\b/i.test(ua) ? 'mobile' : 'tablet';
  if (os !== null && DESKTOP_OSES.has(os)) return 'desktop';
  return 'other';
}
