import argon2 from 'argon2';

// OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane. argon2 hashes on libuv's thread pool, off the event loop.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string) => argon2.hash(password, OPTIONS);

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** Verifying against this when the e-mail is unknown keeps the answer time the same as for a wrong password. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => (decoy ??= hashPassword('decoy-password-never-matches'));
