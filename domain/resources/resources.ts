import { isAdminRole, ROLES } from '../access/roles';
import { assertNever, DomainError, type CommandMetadata, type Decider } from '../decider';

/**
 * The Support Center's resources library: documents administrators publish (datasheets, firmware
 * notes, price lists) for the roles they choose. A resource is served only to those roles.
 */

export const RESOURCE_CATEGORIES = ['Datasheet', 'Firmware Notes', 'Price List', 'Manual', 'Other'] as const;
export type ResourceCategory = (typeof RESOURCE_CATEGORIES)[number];

export const RESOURCE_MESSAGES = {
  titleRequired: 'Title is required.',
  invalidCategory: `Category must be one of ${RESOURCE_CATEGORIES.join(', ')}.`,
  rolesRequired: 'Choose at least one role that may download this resource.',
  invalidRole: 'Unknown role.',
  fileRequired: 'Choose the file to publish.',
  onlyAdmins: 'Only administrators can publish or remove resources.',
  notFound: 'Resource not found.',
  published: 'Resource published successfully',
  removed: 'Resource removed successfully',
} as const;

export interface ResourceFile {
  name: string;
  originalName: string;
  type: string;
}

export type ResourceState = { status: 'none' } | { status: 'published'; id: string; file: string } | { status: 'removed'; id: string };

export type ResourceEvent =
  | {
      type: 'ResourcePublished.v1';
      data: {
        resourceId: string;
        title: string;
        category: ResourceCategory;
        description: string;
        roles: string[];
        file: ResourceFile;
        publishedBy: string | null;
      };
    }
  | { type: 'ResourceRemoved.v1'; data: { resourceId: string } };

export type ResourceCommand =
  | { type: 'PublishResource'; resourceId: string; title: string; category: string; description?: string | null; roles: string[]; file: ResourceFile | null }
  | { type: 'RemoveResource' };

const invalid = (message: string, field: string) => new DomainError('invalid', 'VALIDATION_ERROR', message, [{ field, message }]);

export function decide(command: ResourceCommand, state: ResourceState, metadata: CommandMetadata): ResourceEvent[] {
  if (!isAdminRole(metadata.actorRole)) throw new DomainError('forbidden', 'INSUFFICIENT_PERMISSIONS', RESOURCE_MESSAGES.onlyAdmins);
  switch (command.type) {
    case 'PublishResource': {
      if (state.status !== 'none') return [];
      const title = command.title.trim();
      if (!title) throw invalid(RESOURCE_MESSAGES.titleRequired, 'title');
      if (!(RESOURCE_CATEGORIES as readonly string[]).includes(command.category)) throw invalid(RESOURCE_MESSAGES.invalidCategory, 'category');
      const roles = [...new Set(command.roles.map((role) => role.trim()).filter(Boolean))];
      if (roles.length === 0) throw invalid(RESOURCE_MESSAGES.rolesRequired, 'roles');
      if (roles.some((role) => !(ROLES as readonly string[]).includes(role))) throw invalid(RESOURCE_MESSAGES.invalidRole, 'roles');
      if (!command.file) throw invalid(RESOURCE_MESSAGES.fileRequired, 'file');
      return [
        {
          type: 'ResourcePublished.v1',
          data: {
            resourceId: command.resourceId,
            title,
            category: command.category as ResourceCategory,
            description: command.description?.trim() ?? '',
            roles,
            file: command.file,
            publishedBy: metadata.actorId,
          },
        },
      ];
    }
    case 'RemoveResource':
      if (state.status === 'removed') return [];
      if (state.status === 'none') throw new DomainError('not_found', 'NOT_FOUND', RESOURCE_MESSAGES.notFound);
      return [{ type: 'ResourceRemoved.v1', data: { resourceId: state.id } }];
    default:
      return assertNever(command);
  }
}

export function evolve(state: ResourceState, event: ResourceEvent): ResourceState {
  switch (event.type) {
    case 'ResourcePublished.v1':
      return { status: 'published', id: event.data.resourceId, file: event.data.file.name };
    case 'ResourceRemoved.v1':
      return { status: 'removed', id: event.data.resourceId };
    default:
      return assertNever(event);
  }
}

export const resources: Decider<ResourceState, ResourceCommand, ResourceEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve,
  decide,
  streamId: (id) => `resources-${id}`,
};

/** Who may download: the roles chosen, and administrators always. */
export const mayDownload = (role: string, roles: readonly string[]) => isAdminRole(role) || roles.includes(role);
