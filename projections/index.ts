import { catalogueProjection } from './products';
import { dashboardProjection } from './dashboards';
import { notificationsProjection } from './notifications';
import { ordersProjection } from './orders';
import { partnersProjection } from './partners';
import { rebatesProjection } from './rebates';
import { leadsProjection } from './leads';
import { fundsProjection } from './funds';
import { learningProjection } from './learning';
import { programmeProjection } from './programme';
import { webhooksProjection } from './webhooks';
import type { Projection } from './projection';
import { projectsProjection } from './projects';
import { statusHistoryProjection } from './statusHistory';
import { ticketsProjection } from './tickets';
import { warrantyProjection } from './warranty';
import { resourcesProjection } from './resources';
import { settingsProjection } from './settings';
import { identityProjection } from './identity';
import { usersProjection } from './users';
import { auditProjection } from './audit';
import { activityProjection } from './activity';

/** Every read model, applied in this order to each event. A new module adds its projection here (before the audit log and the activity feed). */
export const readModels: readonly Projection[] = [
  usersProjection,
  statusHistoryProjection,
  notificationsProjection,
  catalogueProjection,
  ordersProjection,
  partnersProjection,
  projectsProjection,
  rebatesProjection,
  leadsProjection,
  fundsProjection,
  learningProjection,
  ticketsProjection,
  programmeProjection,
  warrantyProjection,
  resourcesProjection,
  settingsProjection,
  identityProjection,
  webhooksProjection,
  dashboardProjection,
  // Last: the activity feed, then the audit log, which keeps read.audit_people; the feed reads them as they were before the batch.
  activityProjection,
  auditProjection,
];
