import type { FastifyRequest } from 'fastify';
import type { ProjectDetail } from '../../contracts/projects';
import { isAdminRole, seesAllOrganisations } from '../../domain/access';
import { PROJECT_MESSAGES, projects } from '../../domain/projects/projects';
import { POSSIBLE_EXISTING_REGISTRATION } from '../../domain/projects/registration';
import { findPossibleConflicts, findProjectRow, laterRegistrations, toProjectView, type ProjectRow, type ProjectScope } from '../../projections/projects';
import { metadataFromRequest, runCommand } from '../../platform/commands/dispatch';
import { HttpError } from '../plugins/errors';
import type { Queryable } from '../../platform/db';
import type { Services } from '../../platform/services';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What every projects route file shares: which projects a caller may read and change, the project as
 * the caller may see it, and running a command on it. Who may call each route is the access table's
 * (domain/access/api.ts), enforced before the handler; these add the record scope.
 */
export function projectAccess(services: Services) {
  const { pool } = services;

  const scopeOf = (request: FastifyRequest): ProjectScope => ({
    organisationId: seesAllOrganisations(request.principal.role) ? undefined : request.principal.organisationId,
  });

  /** A project the caller may not see is answered exactly like one that does not exist. */
  const load = async (request: FastifyRequest, id: string, db: Queryable = pool): Promise<ProjectRow> => {
    const row = await findProjectRow(db, id, scopeOf(request));
    if (!row) throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.notFound);
    return row;
  };

  /** Changing a project: admins any, everyone else only their own organisation's (manufacturers and support read all, change none). */
  const loadForChange = async (request: FastifyRequest, id: string, db: Queryable = pool): Promise<ProjectRow> => {
    const row = await load(request, id, db);
    if (!isAdminRole(request.principal.role) && row.organisation_id !== request.principal.organisationId)
      throw new HttpError(404, 'NOT_FOUND', PROJECT_MESSAGES.notFound);
    return row;
  };

  /**
   * Another organisation's project is refused before its body is read, so a caller learns nothing
   * from validation answers about records that are not theirs.
   */
  const ownProject = {
    preValidation: async (request: FastifyRequest) => {
      const id = (request.params as { id?: unknown }).id;
      if (typeof id === 'string' && UUID.test(id)) await loadForChange(request, id);
    },
  };

  /**
   * The project as this caller may see it. Admins also get the registration it collides with and the
   * later registrations that collide with it, side by side; the partner learns only that a review is open.
   */
  const viewFor = async (request: FastifyRequest, id: string, db: Queryable = pool): Promise<ProjectDetail> => {
    const row = await load(request, id, db);
    const possible =
      row.registration_status === 'pending' || row.registration_status === 'approved' || row.registration_status === 'conflict'
        ? await findPossibleConflicts(
            db,
            { customerKey: row.customer_key, emailDomain: row.email_domain, siteKey: row.site_key, customerWords: row.customer_words },
            row.organisation_id,
            new Date(),
            row.id,
          )
        : [];
    // The registering partner is warned without being told whose registration it may meet.
    const view = {
      ...toProjectView(row),
      registration_warning: row.registration_status === 'conflict' || possible.length > 0 ? POSSIBLE_EXISTING_REGISTRATION : null,
    };
    if (!isAdminRole(request.principal.role)) return view;
    const other = row.conflict_with ? await findProjectRow(db, row.conflict_with, { organisationId: undefined }) : undefined;
    const later = await laterRegistrations(db, row.id);
    return {
      ...view,
      conflict_with: row.conflict_with,
      conflicting_project: other ? toProjectView(other) : null,
      later_registrations: later.map(toProjectView),
      possible_conflicts: possible,
    };
  };

  const command = (request: FastifyRequest, id: string, cmd: Parameters<typeof projects.decide>[0]) =>
    runCommand(services, projects, id, cmd, metadataFromRequest(request));

  return { scopeOf, load, loadForChange, ownProject, viewFor, command };
}
