// Real User-Agent strings as sent by the browsers, in-app browsers and preview
// crawlers a printed QR code meets. Expected values are our naming (see classify-agent.ts).
import type { AgentClass } from '../../../src/domain/scans/classify-agent.ts';

export interface AgentCase extends AgentClass {
  name: string;
  ua: string;
}

const human = (name: string, ua: string, device: AgentClass['device'], os: string, browser: string): AgentCase =>
  ({ name, ua, device, os, browser, isBot: false });

export const HUMAN_AGENTS: AgentCase[] = [
  human('iPhone Safari', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'mobile', 'iOS', 'Safari'),
  human('iPhone Chrome', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1', 'mobile', 'iOS', 'Chrome'),
  human('iPad Safari (mobile UA)', 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1', 'tablet', 'iOS', 'Safari'),
  human('Android Chrome phone (reduced UA)', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36', 'mobile', 'Android', 'Chrome'),
  human('Android Chrome phone (Pixel)', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.165 Mobile Safari/537.36', 'mobile', 'Android', 'Chrome'),
  human('Android Chrome tablet (reduced UA)', 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36', 'tablet', 'Android', 'Chrome'),
  human('Android Chrome tablet (Galaxy Tab)', 'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36', 'tablet', 'Android', 'Chrome'),
  human('Samsung Internet', 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 'mobile', 'Android', 'Samsung Internet'),
  human('Firefox Android', 'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0', 'mobile', 'Android', 'Firefox'),
  human('Firefox Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0', 'desktop', 'Windows', 'Firefox'),
  human('Chrome Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'desktop', 'Windows', 'Chrome'),
  human('Edge Windows', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0', 'desktop', 'Windows', 'Edge'),
  human('Safari macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'desktop', 'macOS', 'Safari'),
  human('Chrome macOS', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'desktop', 'macOS', 'Chrome'),
  human('Firefox Ubuntu', 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'desktop', 'Linux', 'Firefox'),
  human('Chrome ChromeOS', 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'desktop', 'ChromeOS', 'Chrome'),
  human('Instagram in-app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 330.0.3.29.91 (iPhone14,5; iOS 17_4_1; en_US; en; scale=3.00; 1170x2532; 590311380)', 'mobile', 'iOS', 'Instagram'),
  human('Instagram in-app (Android)', 'Mozilla/5.0 (Linux; Android 13; SM-G991B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.105 Mobile Safari/537.36 Instagram 321.0.0.39.106 Android (33/13; 480dpi; 1080x2177; samsung; SM-G991B; o1s; exynos2100; en_US; 573506470)', 'mobile', 'Android', 'Instagram'),
  human('Facebook in-app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/468.0.0.44.108;FBBV/614361245;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBCR/;FBID/phone;FBLC/en_US;FBOP/80]', 'mobile', 'iOS', 'Facebook'),
  human('Facebook in-app (Android)', 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240605.024; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/468.1.0.56.78;]', 'mobile', 'Android', 'Facebook'),
  human('WeChat in-app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003137) NetType/WIFI Language/zh_CN', 'mobile', 'iOS', 'WeChat'),
  human('WeChat in-app (Android)', 'Mozilla/5.0 (Linux; Android 13; V2227A Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64', 'mobile', 'Android', 'WeChat'),
  human('LINE in-app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.9.0', 'mobile', 'iOS', 'LINE'),
  human('LINE in-app (Android)', 'Mozilla/5.0 (Linux; Android 14; SM-S911N Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.146 Mobile Safari/537.36 Line/14.8.1/IAB', 'mobile', 'Android', 'LINE'),
  human('X in-app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.48', 'mobile', 'iOS', 'X'),
  human('TikTok in-app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_35.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US ByteFullLocale/en-US isDarkMode/0 WKWebView/1 BytedanceWebview/d8a21c6', 'mobile', 'iOS', 'TikTok'),
  human('Google app (iOS)', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/321.0.642249484 Mobile/15E148 Safari/604.1', 'mobile', 'iOS', 'Google App'),
  // Humans in apps whose names are close to a preview crawler's: must not be flagged.
  human('Slack desktop app', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.38.125 Chrome/124.0.6367.243 Electron/30.1.2 Safari/537.36 Sonic Slack_SSB/4.38.125', 'desktop', 'macOS', 'Electron'),
  human('Telegram in-app (Android)', 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240605.024; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/125.0.6422.165 Mobile Safari/537.36 Telegram-Android/10.14.5 (Google Pixel 8; Android 14; SDK 34; HIGH)', 'mobile', 'Android', 'Android WebView'),
];

const bot = (name: string, ua: string, device: AgentClass['device'] = 'other', os: string | null = null, browser: string | null = null): AgentCase =>
  ({ name, ua, device, os, browser, isBot: true });

export const BOT_AGENTS: AgentCase[] = [
  bot('WhatsApp preview', 'WhatsApp/2.23.20.0'),
  bot('WhatsApp preview (Android)', 'WhatsApp/2.2329.7 A'),
  bot('WhatsApp preview (iOS)', 'WhatsApp/2.23.18.78 i'),
  bot('Slackbot-LinkExpanding', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'),
  bot('Slack-ImgProxy', 'Slack-ImgProxy (+https://api.slack.com/robots)'),
  bot('TelegramBot', 'TelegramBot (like TwitterBot)'),
  bot('iMessage link preview', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'desktop', 'macOS', 'Safari'),
  bot('facebookexternalhit', 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'),
  bot('Facebot', 'Facebot'),
  bot('Twitterbot (X)', 'Twitterbot/1.0'),
  bot('LinkedInBot', 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)'),
  bot('Discordbot', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'),
  bot('Skype preview', 'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com', 'desktop', 'Windows'),
  bot('Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'),
  bot('Googlebot smartphone', 'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'mobile', 'Android', 'Chrome'),
  bot('bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'),
  bot('curl', 'curl/8.5.0'),
  bot('Wget', 'Wget/1.21.4'),
  bot('python-requests', 'python-requests/2.31.0'),
  bot('Headless Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36', 'desktop', 'Linux', 'Headless Chrome'),
];
