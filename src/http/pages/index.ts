// HTML pages of the short link /r/{code}: landing pages, error pages and the .vcf download.
export { escapeHtml } from './escape-html.ts';
export { renderGonePage, renderNotFoundPage, renderPausedPage } from './error-pages.ts';
export {
  type LandingPageOptions,
  linkify,
  renderLandingPage,
  renderTextPage,
  renderVcardPage,
  renderWifiPage,
} from './landing-pages.ts';
export { LANDING_PAGE_CSP, type RenderedPage, pageCsp } from './page-shell.ts';
export { renderVcf, vcfContentDisposition } from './vcf.ts';
export { renderCappedPage, renderExpiredPage, renderPasswordPage, renderScheduledPage } from './lifecycle-pages.ts';
