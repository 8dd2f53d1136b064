import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../shared/errors.js';
import { decodePathParameters } from '../../shared/http/path-parameters.js';

describe('decodePathParameters', () => {
  it('decodes each parameter once', () => {
    expect(decodePathParameters({ id: 'prd_abc', name: 'caf%C3%A9', slash: 'a%2Fb', twice: '%2541' })).toEqual({
      id: 'prd_abc',
      name: 'café',
      slash: 'a/b',
      twice: '%41',
    });
    expect(decodePathParameters(undefined)).toEqual({});
  });

  it.each(['%E0%A4%A', '%', 'abc%zz', '%C3', '%ED%A0%80'])('refuses %j with 400 Malformed percent-encoding in path', (raw) => {
    const attempt = () => decodePathParameters({ id: 'prd_abc', other: raw });
    expect(attempt).toThrow(BadRequestError);
    expect(attempt).toThrow('Malformed percent-encoding in path');
  });
});
