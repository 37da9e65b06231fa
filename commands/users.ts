import type { CommandMetadata } from '../domain/decider';
import { DomainError } from '../domain/decider';
import { emailClaims } from '../domain/identity/emailClaims';
import { users, type UserCommand } from '../domain/identity/users';
import type { Services } from '../platform/services';
import { handleCommand } from '../platform/commands/commandHandler';
import { runCommand } from '../platform/commands/dispatch';

type Deps = Pick<Services, 'store' | 'watcher'>;
type RegisterUser = Extract<UserCommand, { type: 'RegisterUser' }>;
type UpdateUser = Extract<UserCommand, { type: 'UpdateUser' }>;

/**
 * Registering claims the e-mail address first (its own stream), so two accounts can never share
 * one; if the registration itself is then refused, the claim is given back.
 */
export async function withEmailClaimed<T>(deps: Deps, email: string, userId: string, metadata: CommandMetadata, register: () => Promise<T>): Promise<T> {
  await handleCommand(deps.store, emailClaims, email, { type: 'ClaimEmail', email, userId }, metadata);
  try {
    return await register();
  } catch (error) {
    await releaseEmail(deps, email, userId, metadata);
    throw error;
  }
}

/** An edit that changes the e-mail claims the new address before and releases the old one after. */
export async function withEmailChanged<T>(
  deps: Deps,
  userId: string,
  currentEmail: string,
  newEmail: string,
  metadata: CommandMetadata,
  edit: () => Promise<T>,
): Promise<T> {
  const emailChanges = newEmail.toLowerCase() !== currentEmail.toLowerCase();
  if (emailChanges) await handleCommand(deps.store, emailClaims, newEmail, { type: 'ClaimEmail', email: newEmail, userId }, metadata);
  try {
    const result = await edit();
    if (emailChanges) await releaseEmail(deps, currentEmail, userId, metadata);
    return result;
  } catch (error) {
    if (emailChanges) await releaseEmail(deps, newEmail, userId, metadata);
    throw error;
  }
}

export function registerUser(deps: Deps, command: RegisterUser, metadata: CommandMetadata) {
  return withEmailClaimed(deps, command.email, command.userId, metadata, () => runCommand(deps, users, command.userId, command, metadata));
}

export function updateUser(deps: Deps, userId: string, currentEmail: string, command: UpdateUser, metadata: CommandMetadata) {
  return withEmailChanged(deps, userId, currentEmail, command.email, metadata, () => runCommand(deps, users, userId, command, metadata));
}

export async function deleteUser(deps: Deps, userId: string, metadata: CommandMetadata) {
  const result = await runCommand(deps, users, userId, { type: 'DeleteUser' }, metadata);
  await releaseEmailOfDeleted(deps, result.events, userId, metadata);
  return result;
}

/**
 * Erases a person: the store deletes their key before it appends the erasure, so every event's personal
 * fields about them read as erased from then on. The address is given back (its claim's events carry it
 * only encrypted, and now only as erased), so it can be used again.
 */
export async function eraseUser(deps: Deps, userId: string, reason: string, metadata: CommandMetadata) {
  const result = await runCommand(deps, users, userId, { type: 'EraseUser', reason }, metadata);
  if (result.state.status !== 'none') await releaseEmail(deps, result.state.email, userId, metadata);
  return result;
}

/** A deletion gives its address back, so it can be used again. */
export async function releaseEmailOfDeleted(deps: Deps, events: ReadonlyArray<{ type: string; data: unknown }>, userId: string, metadata: CommandMetadata) {
  const deleted = events.find((e) => e.type === 'UserDeleted.v1');
  if (deleted) await releaseEmail(deps, (deleted.data as { email: string }).email, userId, metadata);
}

async function releaseEmail(deps: Deps, email: string, userId: string, metadata: CommandMetadata) {
  await handleCommand(deps.store, emailClaims, email, { type: 'ReleaseEmail', email, userId }, metadata).catch((error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
  });
}
