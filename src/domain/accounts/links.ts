// Where one-time links point: pages of the web app that read the token from the path.
export type LinkPage = 'setup' | 'invite' | 'reset';

export function oneTimeLinkUrl(publicBaseUrl: string, page: LinkPage, token: string): string {
  return `${publicBaseUrl}/app/${page}/${token}`;
}
