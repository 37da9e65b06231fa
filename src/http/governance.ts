import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { governanceAnswer, governanceQuery } from '../../contracts/governance';
import { isAdminRole, meetsRequirement, RESOURCE_RULES } from '../../domain/access';
import { governanceOf } from '../../projections/governance';
import { HttpError } from '../plugins/errors';
import type { Services } from '../../platform/services';

export const GOVERNANCE_MESSAGES = {
  chooseOrganisation: 'Choose the organisation: organisation_id is required for administrators.',
  notFound: 'Organisation not found.',
} as const;

/** Partnership governance: the caller's own organisation; administrators name the organisation. */
export async function governanceRoutes(parent: FastifyInstance, services: Services): Promise<void> {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/governance',
    {
      schema: {
        tags: ['governance'],
        summary: "The organisation's agreement, orders, account team and rebate programme",
        querystring: governanceQuery,
        response: { 200: governanceAnswer },
      },
    },
    async (request) => {
      const { principal } = request;
      let organisationId = principal.organisationId;
      if (isAdminRole(principal.role)) {
        if (!request.query.organisation_id)
          throw new HttpError(400, 'VALIDATION_ERROR', GOVERNANCE_MESSAGES.chooseOrganisation, [
            { field: 'organisation_id', message: GOVERNANCE_MESSAGES.chooseOrganisation },
          ]);
        organisationId = request.query.organisation_id;
      } else if (request.query.organisation_id && request.query.organisation_id !== organisationId) {
        // Another organisation's governance is answered like one that does not exist.
        throw new HttpError(404, 'NOT_FOUND', GOVERNANCE_MESSAGES.notFound);
      }
      const governance = await governanceOf(services.reads, organisationId);
      if (!governance) throw new HttpError(404, 'NOT_FOUND', GOVERNANCE_MESSAGES.notFound);
      // The rebate programme's figures are for those who may read rebates (the Rebates screens ask the same).
      const readsRebates = meetsRequirement(principal, RESOURCE_RULES.rebates.list);
      return { success: true as const, data: readsRebates ? governance : { ...governance, rebate_programme: null } };
    },
  );
}
