import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload, type CryptoKey } from 'jose';

export interface Idp {
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** Signs a token with the published key (or `key`, to forge one). */
  sign(
    claims: JWTPayload,
    options?: { expiresIn?: string; key?: CryptoKey; audience?: string; issuer?: string },
  ): Promise<string>;
  close(): Promise<void>;
}

/** A minimal identity provider: an RS256 key published as a JWKS on 127.0.0.1. */
export async function startIdp(): Promise<Idp> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/`;
  const audience = 'gleaner-api';
  return {
    issuer,
    jwksUrl: `${base}/.well-known/jwks.json`,
    audience,
    async sign(claims, options = {}) {
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? '5m')
        .sign(options.key ?? privateKey);
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The test app's `config` accepting `idp`'s tokens, the team named by their `org` claim. */
export function idpAuthConfig(idp: Idp) {
  return { auth: { jwt: { issuer: idp.issuer, jwksUrl: idp.jwksUrl, audience: idp.audience, teamClaim: 'org' } } };
}
