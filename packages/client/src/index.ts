// A typed client for the qrtrack v1 API. Every path, parameter, body and answer type comes
// from schema.ts, which openapi-typescript generates from the server's OpenAPI document;
// openapi-fetch turns those types into a small fetch wrapper. Nothing here is hand-typed.
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type {
  BreakdownRow,
  ContentType,
  CornerStyle,
  CreateQrRequest,
  DotStyle,
  Error as ApiError,
  ErrorCorrectionLevel,
  FrameStyle,
  GradientType,
  OkResponse,
  PresetLogo,
  PreviewRequest,
  QrDesign,
  QrDesignInput,
  QrItem,
  QrItemList,
  QrItemResponse,
  QrItemWithWarnings,
  QrStats,
  RecentScan,
  StatsBreakdown,
  StatsDay,
  StatsTotals,
  UpdateQrRequest,
  WifiEncryption,
  components,
  operations,
  paths,
} from './schema.js';

export interface QrtrackClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service runs, without /v1: e.g. http://localhost:3000 */
  baseUrl: string;
  /** An API key (qrt_…) with the scopes the calls need: qr:read, qr:write. */
  apiKey: string;
}

export type QrtrackClient = Client<paths>;

/** A client whose every request carries `Authorization: Bearer <apiKey>`. */
export function createQrtrackClient({ baseUrl, apiKey, ...options }: QrtrackClientOptions): QrtrackClient {
  const client = createClient<paths>({ ...options, baseUrl: baseUrl.replace(/\/+$/, '') });
  client.use({
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${apiKey}`);
      return request;
    },
  });
  return client;
}
