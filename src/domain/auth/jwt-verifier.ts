import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { errors } from '../../errors.js';
import { unstorable } from '../../input-rules.js';

export interface JwtSettings {
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** The claim whose string value names the team. */
  teamClaim: string;
}

export interface VerifiedToken {
  subject: string | undefined;
  teamRef: string;
  /** The token's `exp` in epoch milliseconds, when it has one. */
  expiresAt: number | undefined;
}

/** Asymmetric algorithms only: a shared-secret HS256 token can never be forged into acceptance. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Verifies access tokens of the configured identity provider against its JWKS. */
export function createJwtVerifier(settings: JwtSettings): (token: string) => Promise<VerifiedToken> {
  const jwks = createRemoteJWKSet(new URL(settings.jwksUrl), { cooldownDuration: 30_000, cacheMaxAge: 600_000 });
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, jwks, {
        issuer: settings.issuer,
        audience: settings.audience,
        algorithms: ALGORITHMS,
        clockTolerance: 30,
      }));
    } catch (err) {
      throw errors.unauthorized(`access token rejected: ${describeJoseError(err)}`);
    }
    const teamRef = payload[settings.teamClaim];
    if (typeof teamRef !== 'string' || teamRef.length === 0 || teamRef.length > 200) {
      throw errors.unauthorized(`access token has no string claim "${settings.teamClaim}" naming the team`);
    }
    // The team is looked up and stored by this name: text Postgres cannot store is no name.
    if (unstorable(teamRef))
      throw errors.unauthorized(`access token's claim "${settings.teamClaim}" is not valid text`);
    return { subject: payload.sub, teamRef, expiresAt: payload.exp === undefined ? undefined : payload.exp * 1000 };
  };
}

function describeJoseError(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return 'the token has expired';
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `claim "${err.claim}" is not valid (${err.reason})`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return 'the signature does not verify';
  if (err instanceof joseErrors.JWKSNoMatchingKey) return 'no key of the identity provider matches the token';
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return 'the signing algorithm is not accepted';
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JOSEError) {
    return err.code === 'ERR_JWKS_TIMEOUT'
      ? 'the identity provider keys could not be fetched'
      : 'the token is malformed';
  }
  return 'the token could not be verified';
}
