import { describe, expect, it } from 'vitest';
import { newRecoveryCode, normalRecoveryCode, secondFactorRequired, totpCodeAt, totpStep, totpUri } from './secondFactor';

// RFC 6238, appendix B: the SHA-1 seed "12345678901234567890", here in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP on a fixed clock', () => {
  it('computes the RFC 6238 codes (their last six digits)', () => {
    expect(totpCodeAt(RFC_SECRET, 59_000)).toBe('287082');
    expect(totpCodeAt(RFC_SECRET, 1_111_111_109_000)).toBe('081804');
    expect(totpCodeAt(RFC_SECRET, 1_234_567_890_000)).toBe('005924');
  });

  it('accepts the current code and one step either side, and names its step', () => {
    const at = 1_111_111_109_000;
    const step = Math.floor(at / 30_000);
    expect(totpStep(RFC_SECRET, '081804', at)).toBe(step);
    expect(totpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at - 30_000), at)).toBe(step - 1);
    expect(totpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at + 30_000), at)).toBe(step + 1);
  });

  it('refuses a code two steps old or a wrong one', () => {
    const at = 1_111_111_109_000;
    expect(totpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at - 60_000), at)).toBeNull();
    expect(totpStep(RFC_SECRET, totpCodeAt(RFC_SECRET, at + 90_000), at)).toBeNull();
    expect(totpStep(RFC_SECRET, '000000', at)).toBeNull();
  });

  it('writes the otpauth:// URI authenticator apps read', () => {
    const uri = totpUri(RFC_SECRET, 'PartnerHub', 'dana@example.test');
    expect(uri).toMatch(/^otpauth:\/\/totp\/PartnerHub:dana%40example\.test\?/);
    expect(new URL(uri).searchParams.get('secret')).toBe(RFC_SECRET);
    expect(new URL(uri).searchParams.get('issuer')).toBe('PartnerHub');
  });
});

describe('recovery codes', () => {
  it('look like ABCDE-12345, without look-alike characters, and are read back however typed', () => {
    const codes = Array.from({ length: 50 }, newRecoveryCode);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    expect(new Set(codes).size).toBe(50);
    expect(normalRecoveryCode(' abcde-fghjk ')).toBe('ABCDEFGHJK');
  });
});

describe('who must have a second factor', () => {
  it('follows the policy', () => {
    const policy = (mfaRequiredFor: 'nobody' | 'administrators' | 'everyone') => ({ mfaRequiredFor, ssoRequiredOrganisations: [] });
    expect(secondFactorRequired('admin', policy('nobody'))).toBe(false);
    expect(secondFactorRequired('administrator', policy('administrators'))).toBe(true);
    expect(secondFactorRequired('partner', policy('administrators'))).toBe(false);
    expect(secondFactorRequired('partner', policy('everyone'))).toBe(true);
  });
});
