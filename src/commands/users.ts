import type { CommandMetadata } from '../../domain/decider';
import { DomainError } from '../../domain/decider';
import { emailClaims } from '../../domain/identity/emailClaims';
import { users, type UserCommand } from '../../domain/identity/identity';
import type { Services } from '../services';
import { handleCommand } from './commandHandler';
import { runCommand } from './dispatch';

type Deps = Pick<Services, 'store' | 'watcher'>;
type RegisterUser = Extract<UserCommand, { type: 'RegisterUser' }>;
type UpdateUser = Extract<UserCommand, { type: 'UpdateUser' }>;

/**
 * Registering claims the e-mail address first (its own stream), so two accounts can never share
 * one; if the registration itself is then refused, the claim is given back.
 */
export async function registerUser(deps: Deps, command: RegisterUser, metadata: CommandMetadata) {
  await handleCommand(deps.store, emailClaims, command.email, { type: 'ClaimEmail', email: command.email, userId: command.userId }, metadata);
  try {
    return await runCommand(deps, users, command.userId, command, metadata);
  } catch (error) {
    await releaseEmail(deps, command.email, command.userId, metadata);
    throw error;
  }
}

/** An edit that changes the e-mail claims the new address before and releases the old one after. */
export async function updateUser(deps: Deps, userId: string, currentEmail: string, command: UpdateUser, metadata: CommandMetadata) {
  const emailChanges = command.email.toLowerCase() !== currentEmail.toLowerCase();
  if (emailChanges) await handleCommand(deps.store, emailClaims, command.email, { type: 'ClaimEmail', email: command.email, userId }, metadata);
  try {
    const result = await runCommand(deps, users, userId, command, metadata);
    if (emailChanges) await releaseEmail(deps, currentEmail, userId, metadata);
    return result;
  } catch (error) {
    if (emailChanges) await releaseEmail(deps, command.email, userId, metadata);
    throw error;
  }
}

export async function deleteUser(deps: Deps, userId: string, metadata: CommandMetadata) {
  const result = await runCommand(deps, users, userId, { type: 'DeleteUser' }, metadata);
  const deleted = result.events.find((e) => e.type === 'UserDeleted.v1');
  if (deleted) await releaseEmail(deps, deleted.data.email, userId, metadata);
  return result;
}

async function releaseEmail(deps: Deps, email: string, userId: string, metadata: CommandMetadata) {
  await handleCommand(deps.store, emailClaims, email, { type: 'ReleaseEmail', email, userId }, metadata).catch((error: unknown) => {
    if (!(error instanceof DomainError)) throw error;
  });
}
