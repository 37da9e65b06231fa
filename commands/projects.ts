import { DomainError, type CommandMetadata } from '../domain/decider';
import { projects, type ProjectDetails } from '../domain/projects/projects';
import { protectionMs, registrationKey } from '../domain/projects/registration';
import { tierInForceAt } from '../projections/programme';
import { findConflictingRegistration } from '../projections/projects';
import type { Services } from '../platform/services';
import { runCommand } from '../platform/commands/dispatch';

export interface RegisterProjectInput {
  projectId: string;
  organisationId: string;
  companyName: string | null;
  createdBy: string;
  details: ProjectDetails;
  boqFile: string | null;
}

/**
 * Registers a project. The cross-record rule (another organisation already holds a protected
 * registration of the same deal) is looked up in the read model first and handed to the decider,
 * which records the finding in the registration itself.
 */
export async function registerProject(
  services: Pick<Services, 'store' | 'watcher' | 'pool' | 'config'>,
  input: RegisterProjectInput,
  metadata: CommandMetadata,
) {
  const conflict = await findConflictingRegistration(
    services.pool,
    registrationKey(input.details.end_user_customer_name, input.details.end_user_email, input.details.end_user_location),
    input.organisationId,
    new Date(metadata.now),
  );
  // The tier in force when the registration is submitted (when its expiry is set), so a later promotion or demotion leaves it as it was.
  const tier = await tierInForceAt(services.pool, input.organisationId, metadata.now);
  const validityMs = protectionMs(services.config.DEAL_REGISTRATION_VALIDITY_MS, tier?.benefits.protection_days ?? null);
  return runCommand(
    services,
    projects,
    input.projectId,
    { type: 'RegisterProject', ...input, validityMs, conflict: conflict ? { projectId: conflict.id } : null },
    metadata,
  );
}

/**
 * Links an order placed at checkout to the project it was placed for. The order stands on its own:
 * a project deleted meanwhile, or a link already made by a retried checkout, leaves it unlinked or
 * linked once, never refused.
 */
export async function linkOrderAtCheckout(
  services: Pick<Services, 'store' | 'watcher'>,
  projectId: string,
  orderId: string,
  metadata: CommandMetadata,
): Promise<void> {
  try {
    await runCommand(services, projects, projectId, { type: 'LinkOrder', orderId }, metadata);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}
