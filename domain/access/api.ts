/**
 * Who may call each route of the API: the server enforces this table on every request (before the
 * body is read), the authorization matrix test derives its expectations from it, and a route that is
 * missing here refuses to start. Paths are Fastify route patterns without the `/api` prefix.
 *
 * The specification's own endpoint map (ENDPOINT_RULES in rules.ts) is what the web client checks
 * before calling; rules.test.ts checks that this table is never looser than that map.
 */

import { ADMIN_ONLY, allOf, anyOf, meetsRequirement, OPEN, RESOURCE_RULES, roleIs, ROUTE_RULES, type Principal, type Requirement } from './rules';

export type ApiAccess =
  /** No sign-in: signing in, refreshing tokens, registering. */
  | { readonly public: true }
  /** A partner applicant: the onboarding token handed out at registration, or the partner's own session. */
  | { readonly applicant: true }
  /**
   * A signed-in caller meeting `requires`; with `orOwner`, also the account whose id is the route's `:id`.
   * `organisationScoped`: the route's `:id` is a record of one organisation, which callers of other
   * organisations cannot see or change (unless their role sees all organisations); the route's query applies it.
   */
  | { readonly requires: Requirement; readonly orOwner?: true; readonly organisationScoped?: true };

const PUBLIC: ApiAccess = { public: true };
const APPLICANT: ApiAccess = { applicant: true };
const signedIn = (requires: Requirement, options: { orOwner?: true; organisationScoped?: true } = {}): ApiAccess => ({ requires, ...options });
const scoped = { organisationScoped: true } as const;
/** Webhook endpoints: admins (the vendor's) and organisation owner accounts (their organisation's). */
const WEBHOOK_OWNERS = roleIs('partner', 'distributor');

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type ApiRouteKey = `${ApiMethod} /${string}`;

export const API_ROUTES: Readonly<Record<ApiRouteKey, ApiAccess>> = {
  // liveness and the state of the servers the API depends on
  'GET /health': PUBLIC,
  // auth
  'POST /auth/login': PUBLIC,
  'POST /auth/refresh': PUBLIC,
  'POST /user/token/refresh/': PUBLIC,
  'POST /user/register/': PUBLIC,
  'GET /auth/me': signedIn(OPEN),
  'POST /auth/logout': signedIn(OPEN),
  'POST /auth/change-password': signedIn(OPEN),
  // second factors: the signed-in person's own; enrolment and the challenge also serve the holder of a
  // password step's challenge (no session yet), so they are public and check the challenge themselves
  'GET /auth/mfa': signedIn(OPEN),
  'POST /auth/mfa/totp/enrol': PUBLIC,
  'POST /auth/mfa/totp/confirm': PUBLIC,
  'POST /auth/mfa/passkeys/options': signedIn(OPEN),
  'POST /auth/mfa/passkeys': signedIn(OPEN),
  'DELETE /auth/mfa/factors/:factorId': signedIn(OPEN),
  'POST /auth/mfa/passkey/options': PUBLIC,
  'POST /auth/mfa/challenge': PUBLIC,
  // single sign-on
  'GET /auth/oidc/providers': PUBLIC,
  'GET /auth/oidc/:provider/start': PUBLIC,
  'GET /auth/oidc/:provider/callback': PUBLIC,
  'POST /auth/oidc/complete': PUBLIC,
  'GET /identity-providers': signedIn(ADMIN_ONLY),
  'GET /identity-providers/:id': signedIn(ADMIN_ONLY),
  'POST /identity-providers': signedIn(ADMIN_ONLY),
  'PUT /identity-providers/:id': signedIn(ADMIN_ONLY),
  'DELETE /identity-providers/:id': signedIn(ADMIN_ONLY),

  // users: the admin panel's User Management
  'GET /users': signedIn(ADMIN_ONLY),
  'GET /users/:id': signedIn(ADMIN_ONLY),
  'GET /users/:id/history': signedIn(ADMIN_ONLY),
  'GET /users/:id/versions': signedIn(ADMIN_ONLY),
  'POST /users': signedIn(ADMIN_ONLY),
  'PUT /users/:id': signedIn(ADMIN_ONLY),
  'POST /users/bulk-status': signedIn(ADMIN_ONLY),
  'DELETE /users/:id': signedIn(ADMIN_ONLY),
  'POST /users/:id/erase': signedIn(ADMIN_ONLY),
  'POST /users/:id/mfa/reset': signedIn(ADMIN_ONLY),

  // notifications: each user's own
  'GET /notifications': signedIn(RESOURCE_RULES.notifications.list),
  'POST /notifications/:id/read': signedIn(RESOURCE_RULES.notifications.edit),
  'POST /notifications/read-all': signedIn(RESOURCE_RULES.notifications.edit),

  'GET /jobs/failed': signedIn(ADMIN_ONLY),

  // products: the catalogue
  'GET /products': signedIn(RESOURCE_RULES.products.list),
  'GET /products/:id': signedIn(RESOURCE_RULES.products.show),
  'GET /products/:id/versions': signedIn(RESOURCE_RULES.products.show),
  'POST /products': signedIn(RESOURCE_RULES.products.create),
  'PUT /products/:id': signedIn(RESOURCE_RULES.products.edit),
  'DELETE /products/:id': signedIn(RESOURCE_RULES.products.delete),
  'POST /products/bulk-delete': signedIn(RESOURCE_RULES.products.delete),

  // orders
  'GET /orders': signedIn(RESOURCE_RULES.orders.list),
  'GET /orders/stats': signedIn(RESOURCE_RULES.orders.list),
  'GET /orders/counts': signedIn(RESOURCE_RULES.orders.list),
  'GET /orders/export': signedIn(RESOURCE_RULES.orders.list),
  'GET /orders/organisations': signedIn(RESOURCE_RULES.orders.list),
  // The shipping form's starting address: for those who may send it.
  'GET /orders/shipping-profile': signedIn(allOf(RESOURCE_RULES.orders.create, anyOf('Orders.Shipping'))),
  'GET /orders/:id': signedIn(RESOURCE_RULES.orders.show, scoped),
  'GET /orders/:id/history': signedIn(RESOURCE_RULES.orders.show, scoped),
  'GET /orders/:id/versions': signedIn(RESOURCE_RULES.orders.show, scoped),
  'GET /orders/:id/track': signedIn(anyOf('Orders.Track'), scoped),
  // The endpoint map asks Orders.Checkout (distributors' 'Order create' is Orders.Create); the shipping form that sends it asks Orders.Shipping.
  'POST /orders': signedIn(allOf(RESOURCE_RULES.orders.create, anyOf('Orders.Shipping'))),
  'PUT /orders/admin/:id/status': signedIn(ADMIN_ONLY, scoped),

  // projects: deal registrations. Changes to another organisation's project are refused in the route (404) unless by an admin.
  'GET /projects': signedIn(RESOURCE_RULES.projects.list),
  'GET /projects/stats': signedIn(RESOURCE_RULES.projects.list),
  'GET /projects/partners': signedIn(RESOURCE_RULES.projects.create),
  'GET /projects/:id': signedIn(RESOURCE_RULES.projects.show, scoped),
  'POST /projects': signedIn(RESOURCE_RULES.projects.create),
  'PUT /projects/:id': signedIn(RESOURCE_RULES.projects.edit, scoped),
  // The endpoint map asks Projects.Update, the action table's delete-project Projects.Delete: both are required.
  'DELETE /projects/:id': signedIn(allOf(RESOURCE_RULES.projects.delete, RESOURCE_RULES.projects.edit), scoped),
  'GET /projects/:id/history': signedIn(ADMIN_ONLY, scoped),
  'GET /projects/:id/versions': signedIn(RESOURCE_RULES.projects.show, scoped),
  'GET /projects/:id/boq': signedIn(RESOURCE_RULES.projects.show, scoped),
  'POST /projects/:id/review': signedIn(ADMIN_ONLY, scoped),
  // One reason for many registrations; each id is checked and reviewed on its own.
  'POST /projects/bulk-review': signedIn(ADMIN_ONLY),
  'POST /projects/:id/extension': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'POST /projects/:id/extension/decision': signedIn(ADMIN_ONLY, scoped),
  'GET /projects/:id/team': signedIn(RESOURCE_RULES.projects.show, scoped),
  'GET /projects/:id/team/candidates': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'POST /projects/:id/team': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'DELETE /projects/:id/team/:userId': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'GET /projects/:id/orders': signedIn(RESOURCE_RULES.projects.show, scoped),
  'GET /projects/:id/orders/candidates': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'POST /projects/:id/orders': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'DELETE /projects/:id/orders/:orderId': signedIn(RESOURCE_RULES.projects.edit, scoped),
  'GET /projects/:id/milestones': signedIn(RESOURCE_RULES.projects.show, scoped),
  // A milestone's :id is not a project's: its project's scope is checked in the route.
  'POST /projects/milestones': signedIn(RESOURCE_RULES.projects.edit),
  'GET /projects/milestones/:id': signedIn(RESOURCE_RULES.projects.show),
  'PUT /projects/milestones/:id': signedIn(RESOURCE_RULES.projects.edit),
  'DELETE /projects/milestones/:id': signedIn(RESOURCE_RULES.projects.edit),

  // partners: applications, the directory, approval
  'POST /partner/onboarding': APPLICANT,
  'POST /partner/onboarding/questionnaire': APPLICANT,
  'GET /partner/partners': signedIn(RESOURCE_RULES.partners.list),
  // The applicant reads their own application; team members of the organisation do not.
  'GET /partner/partners/:id': signedIn(RESOURCE_RULES.partners.show, { orOwner: true }),
  'GET /partner/partners/:id/history': signedIn(ADMIN_ONLY),
  // The whole application's past, like the whole application today: administrators and the applicant.
  'GET /partner/partners/:id/versions': signedIn(ADMIN_ONLY, { orOwner: true }),
  'PATCH /partner/partners/:id': signedIn(ADMIN_ONLY),
  'PUT /partner/partners/:id': signedIn(ADMIN_ONLY),

  // tickets: the Support Center; support staff and admins see every organisation's
  'GET /tickets': signedIn(RESOURCE_RULES.tickets.list),
  'GET /tickets/statistics': signedIn(RESOURCE_RULES.tickets.list),
  // Figures across every organisation, and the staff list: for those who work tickets.
  'GET /tickets/dashboard': signedIn(RESOURCE_RULES.tickets.edit),
  'GET /tickets/assignees': signedIn(RESOURCE_RULES.tickets.edit),
  'GET /tickets/attachments/:name': signedIn(RESOURCE_RULES.tickets.show),
  'POST /tickets': signedIn(RESOURCE_RULES.tickets.create),
  // The Warranty/RMA tab: a look-up for whoever reaches the Support Center; a return opens a ticket.
  'POST /warranty/checks': signedIn(RESOURCE_RULES.tickets.list),
  'POST /tickets/rma': signedIn(RESOURCE_RULES.tickets.create),
  'GET /tickets/:id': signedIn(RESOURCE_RULES.tickets.show, scoped),
  'GET /tickets/:id/comments': signedIn(RESOURCE_RULES.tickets.show, scoped),
  'GET /tickets/:id/history': signedIn(RESOURCE_RULES.tickets.show, scoped),
  'GET /tickets/:id/versions': signedIn(RESOURCE_RULES.tickets.show, scoped),
  // The organisation that opened a case replies on it; support staff reply and add internal notes.
  'POST /tickets/:id/comments': signedIn(anyOf('Support.Create', 'Support.Update'), scoped),
  'PATCH /tickets/:id/status': signedIn(RESOURCE_RULES.tickets.edit, scoped),
  'PATCH /tickets/:id/assign': signedIn(RESOURCE_RULES.tickets.edit, scoped),
  'PUT /tickets/:id': signedIn(RESOURCE_RULES.tickets.edit, scoped),
  'DELETE /tickets/:id': signedIn(RESOURCE_RULES.tickets.delete, scoped),

  // resources: the Downloads library (/downloads and the Support Center's tab); each document names the
  // roles that may download it, so every signed-in user lists what their role may download
  'GET /resources': signedIn(OPEN),
  'GET /resources/files/:name': signedIn(OPEN),
  'POST /resources': signedIn(ADMIN_ONLY),
  'DELETE /resources/:id': signedIn(ADMIN_ONLY),

  // settings: the support contact is shown in the Support Center and changed in System Settings
  // Public contact details: every signed-in user may read them (Live Chat, the Support Center, the order confirmation).
  'GET /settings/support-contact': signedIn(OPEN),
  'PUT /settings/support-contact': signedIn(ADMIN_ONLY),
  'GET /settings/notifications': signedIn(ADMIN_ONLY),
  'PUT /settings/notifications': signedIn(ADMIN_ONLY),
  'GET /settings/email-templates': signedIn(ADMIN_ONLY),
  'PUT /settings/email-templates/:kind': signedIn(ADMIN_ONLY),
  'DELETE /settings/email-templates/:kind': signedIn(ADMIN_ONLY),
  'GET /settings/history': signedIn(ADMIN_ONLY),
  'GET /settings/access-control': signedIn(ADMIN_ONLY),
  'GET /settings/security': signedIn(ADMIN_ONLY),
  'PUT /settings/security': signedIn(ADMIN_ONLY),
  'GET /settings/api-keys': signedIn(ADMIN_ONLY),
  'POST /settings/api-keys': signedIn(ADMIN_ONLY),
  'GET /settings/api-keys/options': signedIn(ADMIN_ONLY),
  'POST /settings/api-keys/:id/rotate': signedIn(ADMIN_ONLY),
  'DELETE /settings/api-keys/:id': signedIn(ADMIN_ONLY),
  // An organisation's own API keys: managed by its owner account only (team members act through their own sign-in).
  'GET /organisation/api-keys': signedIn(roleIs('partner', 'distributor')),
  'GET /organisation/api-keys/options': signedIn(roleIs('partner', 'distributor')),
  'POST /organisation/api-keys': signedIn(roleIs('partner', 'distributor')),
  'POST /organisation/api-keys/:id/rotate': signedIn(roleIs('partner', 'distributor'), scoped),
  'DELETE /organisation/api-keys/:id': signedIn(roleIs('partner', 'distributor'), scoped),
  'GET /settings/backup': signedIn(ADMIN_ONLY),
  'GET /settings/backup/events': signedIn(ADMIN_ONLY),
  // governance: the caller's own organisation's agreement, orders, account team and rebate programme
  'GET /governance': signedIn(roleIs('partner', 'distributor')),
  // dashboards: each role's own figures (administrators any user's, with user_id); quick actions and activity for everyone signed in
  'GET /dashboard/manufacturer/stats': signedIn(roleIs('manufacturer')),
  'GET /dashboard/stats': signedIn(roleIs('partner')),
  'GET /dashboard/distributor/stats': signedIn(roleIs('distributor')),
  'GET /dashboard/support/stats': signedIn(roleIs('support')),
  'GET /dashboard/admin/stats': signedIn(ADMIN_ONLY),
  'GET /dashboard/quick-actions': signedIn(OPEN),
  'GET /dashboard/recent-activity': signedIn(OPEN),

  // team: each partner and distributor manages its own members (administrators any team)
  ...teamRoutes('partner'),
  ...teamRoutes('distributor'),
  'GET /permissions': signedIn(OPEN),
  'GET /permissions/groups': signedIn(OPEN),
  // The role model: each answer holds what the caller may read (the route decides per role).
  'GET /permissions/roles': signedIn(OPEN),
  'GET /permissions/role/:role': signedIn(OPEN),
  'GET /permissions/hierarchy': signedIn(OPEN),
  'POST /permissions/validate': signedIn(OPEN),
  'GET /team/invitation': PUBLIC,
  'POST /team/invitations/accept': PUBLIC,

  // leads: created and imported by those holding Leads.Create; offered to one organisation at a time,
  // which answers and works them (Leads.Update); routing rules and reassignment are the admins'.
  'GET /leads': signedIn(RESOURCE_RULES.leads.list),
  'GET /leads/export': signedIn(RESOURCE_RULES.leads.list),
  'GET /leads/reports': signedIn(RESOURCE_RULES.leads.list),
  'GET /leads/organisations': signedIn(RESOURCE_RULES.leads.create),
  'POST /leads': signedIn(RESOURCE_RULES.leads.create),
  'POST /leads/import': signedIn(RESOURCE_RULES.leads.create),
  'GET /leads/:id': signedIn(RESOURCE_RULES.leads.show, scoped),
  // Editing the lead's own fields is for those who create leads, not for the organisation working it.
  'PUT /leads/:id': signedIn(RESOURCE_RULES.leads.create, scoped),
  'GET /leads/:id/history': signedIn(RESOURCE_RULES.leads.show, scoped),
  'GET /leads/:id/versions': signedIn(RESOURCE_RULES.leads.show, scoped),
  'POST /leads/:id/accept': signedIn(RESOURCE_RULES.leads.edit, scoped),
  'POST /leads/:id/decline': signedIn(RESOURCE_RULES.leads.edit, scoped),
  'POST /leads/:id/status': signedIn(RESOURCE_RULES.leads.edit, scoped),
  // A conversion registers a deal: it needs the right to register one too.
  'POST /leads/:id/convert': signedIn(allOf(RESOURCE_RULES.leads.edit, RESOURCE_RULES.projects.create), scoped),
  'POST /leads/:id/assign': signedIn(ADMIN_ONLY, scoped),
  'GET /lead-rules': signedIn(ADMIN_ONLY),
  'GET /lead-rules/:id': signedIn(ADMIN_ONLY),
  'POST /lead-rules': signedIn(ADMIN_ONLY),
  'PUT /lead-rules/:id': signedIn(ADMIN_ONLY),
  'POST /lead-rules/:id/move': signedIn(ADMIN_ONLY),
  'DELETE /lead-rules/:id': signedIn(ADMIN_ONLY),

  // rebates: claims of the caller's organisation (all of them for admins); reviews are for admins
  'POST /rebates/submit': signedIn(RESOURCE_RULES.rebates.create),
  // GET /rebates is the endpoint map's name for the list; /rebates/user is the Rebates page's.
  'GET /rebates': signedIn(RESOURCE_RULES.rebates.list),
  'GET /rebates/user': signedIn(RESOURCE_RULES.rebates.list),
  'GET /rebates/export': signedIn(RESOURCE_RULES.rebates.list),
  // The Overview and Progress tabs open with Rebates.Overview or Rebates.Read (spec 002 §6).
  'GET /rebates/stats/user': signedIn(anyOf('Rebates.Read', 'Rebates.Overview')),
  'GET /rebates/dashboard/overview': signedIn(anyOf('Rebates.Read', 'Rebates.Overview')),
  // The form's lists: for anyone who may open /rebates.
  'GET /rebates/categories/list': signedIn(ROUTE_RULES['/rebates']!),
  'GET /rebates/types/list': signedIn(ROUTE_RULES['/rebates']!),
  'GET /rebates/admin/all': signedIn(ADMIN_ONLY),
  'PATCH /rebates/admin/:id/status': signedIn(ADMIN_ONLY, scoped),
  'POST /rebates/bulk-review': signedIn(ADMIN_ONLY),
  'GET /rebates/:id': signedIn(RESOURCE_RULES.rebates.show, scoped),
  'GET /rebates/:id/history': signedIn(RESOURCE_RULES.rebates.show, scoped),
  'GET /rebates/:id/versions': signedIn(RESOURCE_RULES.rebates.show, scoped),
  'GET /rebates/:id/attachments/:name': signedIn(RESOURCE_RULES.rebates.show),
  // The submitting organisation withdraws its own claim (Rebates.Create); Rebates.Delete is the catalogue's name for it.
  'DELETE /rebates/:id': signedIn(anyOf('Rebates.Create', 'Rebates.Delete'), scoped),

  // partner programme: the ladder is public to every signed-in account; admins edit it, evaluate and override;
  // manufacturers read every organisation's standing and the runs; a partner reads its own organisation's standing
  'GET /programme/tiers': signedIn(OPEN),
  'GET /programme/tiers/:id': signedIn(OPEN),
  'POST /programme/tiers': signedIn(ADMIN_ONLY),
  'PUT /programme/tiers/:id': signedIn(ADMIN_ONLY),
  'GET /programme/tiers/:id/versions': signedIn(ADMIN_ONLY),
  'GET /programme/standing': signedIn(roleIs('partner', 'partner_user')),
  'GET /programme/organisations': signedIn(roleIs('manufacturer', 'partner', 'partner_user')),
  'GET /programme/organisations/:id/standing': signedIn(roleIs('manufacturer', 'partner', 'partner_user'), scoped),
  'GET /programme/organisations/:id/history': signedIn(roleIs('manufacturer', 'partner', 'partner_user'), scoped),
  'GET /programme/organisations/:id/versions': signedIn(ADMIN_ONLY, scoped),
  'POST /programme/organisations/:id/override': signedIn(ADMIN_ONLY, scoped),
  'DELETE /programme/organisations/:id/override': signedIn(ADMIN_ONLY, scoped),
  'POST /programme/evaluate': signedIn(ADMIN_ONLY),
  'GET /programme/evaluations': signedIn(roleIs('manufacturer')),
  'GET /programme/evaluations/:id': signedIn(roleIs('manufacturer')),
  // scorecards: every organisation for admins and manufacturers; a partner its own row and rank band only
  'GET /scorecards': signedIn(roleIs('manufacturer', 'partner', 'partner_user')),
  'GET /scorecards/export': signedIn(roleIs('manufacturer', 'partner', 'partner_user')),
  'GET /scorecards/:id': signedIn(roleIs('manufacturer', 'partner', 'partner_user'), scoped),
  // outbound webhooks: admins register the vendor's endpoints (and see every endpoint); an organisation's owner
  // account registers its organisation's, which receive only that organisation's events
  'GET /webhooks/catalogue': signedIn(WEBHOOK_OWNERS),
  'GET /webhooks': signedIn(WEBHOOK_OWNERS),
  'POST /webhooks': signedIn(WEBHOOK_OWNERS),
  'GET /webhooks/:id': signedIn(WEBHOOK_OWNERS, scoped),
  'PUT /webhooks/:id': signedIn(WEBHOOK_OWNERS, scoped),
  'DELETE /webhooks/:id': signedIn(WEBHOOK_OWNERS, scoped),
  'GET /webhooks/:id/deliveries': signedIn(WEBHOOK_OWNERS, scoped),
  'POST /webhooks/:id/deliveries/:deliveryId/redeliver': signedIn(WEBHOOK_OWNERS, scoped),
  'POST /webhooks/:id/replay': signedIn(WEBHOOK_OWNERS, scoped),

  // market development funds: funds are managed by admins; requests and claims are the organisation's own (all for admins); reviews and payouts are for admins
  'GET /funds': signedIn(RESOURCE_RULES.funds.list),
  'GET /funds/balance': signedIn(RESOURCE_RULES.funds.list),
  'POST /funds': signedIn(ADMIN_ONLY),
  'GET /funds/:id': signedIn(RESOURCE_RULES.funds.show),
  'PUT /funds/:id': signedIn(ADMIN_ONLY),
  'POST /funds/:id/allocations': signedIn(ADMIN_ONLY),
  'POST /funds/:id/close': signedIn(ADMIN_ONLY),
  'GET /funds/:id/allocation-rule': signedIn(ADMIN_ONLY),
  'POST /funds/:id/allocation-rule': signedIn(ADMIN_ONLY),
  'GET /funds/:id/history': signedIn(RESOURCE_RULES.funds.show),
  'GET /funds/:id/versions': signedIn(RESOURCE_RULES.funds.show),
  'POST /fund-requests': signedIn(RESOURCE_RULES.funds.create),
  'GET /fund-requests': signedIn(RESOURCE_RULES.funds.list),
  'GET /fund-requests/export': signedIn(RESOURCE_RULES.funds.list),
  'GET /fund-requests/:id': signedIn(RESOURCE_RULES.funds.show, scoped),
  'PUT /fund-requests/:id': signedIn(RESOURCE_RULES.funds.edit, scoped),
  'POST /fund-requests/:id/review': signedIn(ADMIN_ONLY, scoped),
  'GET /fund-requests/:id/history': signedIn(RESOURCE_RULES.funds.show, scoped),
  'GET /fund-requests/:id/versions': signedIn(RESOURCE_RULES.funds.show, scoped),
  'GET /fund-requests/:id/attachments/:name': signedIn(RESOURCE_RULES.funds.show),
  'POST /fund-claims': signedIn(RESOURCE_RULES.funds.create),
  'GET /fund-claims': signedIn(RESOURCE_RULES.funds.list),
  'GET /fund-claims/export': signedIn(RESOURCE_RULES.funds.list),
  'GET /fund-claims/:id': signedIn(RESOURCE_RULES.funds.show, scoped),
  'POST /fund-claims/:id/proof': signedIn(RESOURCE_RULES.funds.create, scoped),
  'POST /fund-claims/:id/review': signedIn(ADMIN_ONLY, scoped),
  'POST /fund-claims/:id/payout': signedIn(ADMIN_ONLY, scoped),
  'GET /fund-claims/:id/history': signedIn(RESOURCE_RULES.funds.show, scoped),
  'GET /fund-claims/:id/versions': signedIn(RESOURCE_RULES.funds.show, scoped),
  'GET /fund-claims/:id/proof/:name': signedIn(RESOURCE_RULES.funds.show),

  // learning: the catalogue and certifications for Learning.Read (learners see their own records, owners
  // their organisation's people, those who see every organisation all: scoped in the queries, so the
  // records are not marked organisationScoped: a team member reads only their own, not a colleague's);
  // courses are written by Learning.Update; assignments and the training matrix are the owners'.
  'GET /courses': signedIn(RESOURCE_RULES.courses.list),
  'GET /courses/export': signedIn(RESOURCE_RULES.courses.list),
  'POST /courses': signedIn(RESOURCE_RULES.courses.create),
  'GET /courses/:id': signedIn(RESOURCE_RULES.courses.show),
  'PUT /courses/:id': signedIn(RESOURCE_RULES.courses.edit),
  'POST /courses/:id/publish': signedIn(RESOURCE_RULES.courses.edit),
  'POST /courses/:id/archive': signedIn(RESOURCE_RULES.courses.edit),
  'GET /courses/:id/history': signedIn(RESOURCE_RULES.courses.edit),
  'GET /courses/:id/versions': signedIn(RESOURCE_RULES.courses.edit),
  'POST /courses/:id/enrol': signedIn(RESOURCE_RULES.courses.show),
  'GET /courses/:id/progress': signedIn(RESOURCE_RULES.courses.show),
  'POST /courses/:id/progress': signedIn(RESOURCE_RULES.courses.show),
  'GET /courses/:id/attempts': signedIn(RESOURCE_RULES.courses.show),
  'POST /courses/:id/attempts': signedIn(RESOURCE_RULES.courses.show),
  'GET /learning/enrolments': signedIn(RESOURCE_RULES.courses.list),
  'GET /learning/assignments': signedIn(RESOURCE_RULES.courses.list),
  'GET /learning/assignments/:id': signedIn(RESOURCE_RULES.courses.show),
  'POST /learning/assignments': signedIn(allOf(RESOURCE_RULES.courses.show, roleIs('partner', 'distributor'))),
  'POST /learning/assignments/:id/cancel': signedIn(allOf(RESOURCE_RULES.courses.show, roleIs('partner', 'distributor'))),
  'GET /learning/matrix': signedIn(allOf(RESOURCE_RULES.courses.show, roleIs('partner', 'distributor'))),
  'GET /learning/reports': signedIn(RESOURCE_RULES.courses.edit),
  'POST /learning/media': signedIn(RESOURCE_RULES.courses.create),
  'GET /learning/media/:name': signedIn(RESOURCE_RULES.courses.show),
  'GET /certifications': signedIn(RESOURCE_RULES.certifications.list),
  'GET /certifications/export': signedIn(RESOURCE_RULES.certifications.list),
  'GET /certifications/:id': signedIn(RESOURCE_RULES.certifications.show),
  'GET /certifications/:id/certificate.pdf': signedIn(RESOURCE_RULES.certifications.show),
  // Anyone holding a printed certificate can check it; rate-limited per address, answers no personal data.
  'GET /certifications/verify/:code': PUBLIC,

  // audit: the log of every event is for admins; each organisation reads its own activity feed
  'GET /audit': signedIn(ADMIN_ONLY),
  'GET /audit/export.csv': signedIn(ADMIN_ONLY),
  // Lines are filtered by the caller's read permissions when read; always the caller's own organisation.
  'GET /activity': signedIn(roleIs('partner', 'distributor', 'partner_user', 'distributor_user')),
};

function teamRoutes(owner: 'partner' | 'distributor'): Record<ApiRouteKey, ApiAccess> {
  const base = `/${owner}/management/sub-users` as const;
  const owners = signedIn(roleIs(owner));
  const ownersOfTheMember = signedIn(roleIs(owner), scoped);
  return {
    [`GET ${base}`]: owners,
    [`POST ${base}`]: owners,
    [`GET ${base}/:id`]: ownersOfTheMember,
    [`GET ${base}/:id/versions`]: ownersOfTheMember,
    [`PUT ${base}/:id`]: ownersOfTheMember,
    [`DELETE ${base}/:id`]: ownersOfTheMember,
    [`POST ${base}/:id/reset-password`]: ownersOfTheMember,
  };
}

/** The access rule of a route (`GET`, `/orders/:id`, prefix already removed); HEAD follows GET. */
export function apiAccessOf(method: string, path: string): ApiAccess | undefined {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const key = `${verb} ${path}` as ApiRouteKey;
  return Object.hasOwn(API_ROUTES, key) ? API_ROUTES[key] : undefined;
}

/**
 * Whether a signed-in principal may call a route. `ownerId` is the route's `:id` when the route has one,
 * for rules that also let the record's owner in.
 */
export function mayCallApi(principal: Principal & { readonly id?: string }, access: ApiAccess, ownerId?: string): boolean {
  if ('public' in access) return true;
  if ('applicant' in access) return principal.role === 'partner';
  if (meetsRequirement(principal, access.requires)) return true;
  return Boolean(access.orOwner && ownerId !== undefined && principal.id === ownerId);
}
