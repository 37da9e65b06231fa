import { foldOf, type RecordFields, type VersionedRecordType } from '../versions';
import { contactVisibleTo, leads, type LeadState, type LeadViewer } from './leads';

/**
 * A lead's versions as one viewer may see them. Whether the contact (name, e-mail, phone) shows is
 * decided once, by `contactVisibleTo` on the lead as it is now: an organisation that declined the
 * lead, let it lapse, lost it to a reassignment or has not accepted it yet sees no contact in any
 * version, even of the time it held it. Notes follow the holder, other organisations are never named.
 */
export function leadVersionType(viewer: LeadViewer, now: LeadState): VersionedRecordType<LeadState> {
  const current = now.status === 'none' ? { status: 'none', organisationId: null } : now;
  const contact = contactVisibleTo(current, viewer);
  const holds = viewer.seesAll || (viewer.organisationId !== null && current.organisationId === viewer.organisationId);
  const own = (organisationId: string | null) => (viewer.seesAll || organisationId === viewer.organisationId ? organisationId : null);
  return {
    label: 'Lead',
    decider: foldOf<LeadState>(leads),
    present: (state): RecordFields | null =>
      state.status === 'none'
        ? null
        : {
            id: state.id,
            status: state.status,
            company: state.details.company,
            contact_name: contact ? state.details.contactName : null,
            email: contact ? state.details.email : null,
            phone: contact ? state.details.phone : null,
            country: state.details.country,
            region: state.details.region,
            product_interest: state.details.productInterest,
            estimated_value: state.details.estimatedValue,
            source: state.details.source,
            notes: holds ? state.details.notes : null,
            organisation_id: own(state.organisationId),
            due_at: own(state.organisationId) ? state.dueAt : null,
            duplicate_of: viewer.seesAll ? state.duplicateOf : null,
            project_id: holds ? state.projectId : null,
          },
    labels: { LeadAssigned: 'Assigned', LeadLapsed: 'Lapsed: no answer within the acceptance window' },
  };
}
