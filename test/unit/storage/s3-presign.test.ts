import { describe, expect, it } from 'vitest';
import { presignS3Url } from '../../../src/storage/s3-presign.js';

const AWS_EXAMPLE = {
  accessKey: 'AKIAIOSFODNN7EXAMPLE',
  secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  now: new Date('2013-05-24T00:00:00Z'),
};

describe('presignS3Url', () => {
  it('reproduces the presigned GET of the AWS SigV4 documentation', () => {
    const url = presignS3Url({
      ...AWS_EXAMPLE,
      method: 'GET',
      endpoint: new URL('https://examplebucket.s3.amazonaws.com'),
      bucket: null,
      key: 'test.txt',
      expiresInSeconds: 86400,
    });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
        '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
        '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host' +
        '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('signs the given headers with the host, and addresses objects path-style', () => {
    const put = (headers: Record<string, string>) =>
      new URL(
        presignS3Url({
          ...AWS_EXAMPLE,
          method: 'PUT',
          endpoint: new URL('http://127.0.0.1:9000'),
          bucket: 'files',
          key: "teams/t 1/ü(x)!*'.json",
          expiresInSeconds: 600,
          headers,
        }),
      );
    const url = put({ 'Content-Type': '  application/json ' });
    expect(url.host).toBe('127.0.0.1:9000');
    expect(url.pathname).toBe('/files/teams/t%201/%C3%BC%28x%29%21%2A%27.json');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    const signature = url.searchParams.get('X-Amz-Signature');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    // Header values are canonical (trimmed), and another value signs differently.
    expect(put({ 'content-type': 'application/json' }).searchParams.get('X-Amz-Signature')).toBe(signature);
    expect(put({ 'content-type': 'text/html' }).searchParams.get('X-Amz-Signature')).not.toBe(signature);
  });
});
