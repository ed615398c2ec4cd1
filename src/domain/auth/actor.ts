/** Who is calling: every use case receives one and sees only its team's resources. */
export interface Actor {
  teamId: string;
  via: 'api_key' | 'jwt';
  /** The API key used, when via is api_key. */
  keyId?: string;
  /** The token subject, when via is jwt. */
  subject?: string;
  /** When the access token expires (epoch ms), when via is jwt and it says. */
  expiresAt?: number;
}
