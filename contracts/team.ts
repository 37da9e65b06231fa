import { z } from 'zod';
import { acceptedAnswer, commandAnswer, recordAnswer } from './answers';
import { newPasswordRule } from './identity';

/**
 * Teams: a partner's or distributor's own accounts (team members), the permissions an owner may give
 * them, the role model, and the invitation a member sets a password with.
 *
 * Routes (all under /api; `<owner>` is `partner` or `distributor`):
 * - GET    /<owner>/management/sub-users                    owner (own team), admins (every team): `teamListAnswer`
 * - GET    /<owner>/management/sub-users/:id                 one member — `teamMemberAnswer`; with `asOf` as it was (identity's `asOfRecordAnswer`)
 * - POST   /<owner>/management/sub-users                     `teamMemberCreateBody` → `teamMemberCreatedAnswers` (an invitation adds `invitationLink`)
 * - PUT    /<owner>/management/sub-users/:id                 `teamMemberEditFields` (react-admin's record fields ignored) → `teamMemberAnswer`
 * - DELETE /<owner>/management/sub-users/:id                 → identity's `idAnswer`
 * - POST   /<owner>/management/sub-users/:id/reset-password  `resetPasswordBody` → identity's `idAnswer`
 * - GET    /permissions, /permissions/groups                  what the caller may give — `permissionsAnswer`, `permissionGroupsAnswer`
 * - GET    /permissions/roles, /permissions/role/:role        the role model — `rolesAnswer`, `roleAnswer`
 * - GET    /permissions/hierarchy                             `hierarchyAnswer`
 * - POST   /permissions/validate                              `validatePermissionsBody` → `validatePermissionsAnswer`
 * - GET    /team/invitation?token=                            signed out: `invitationAnswer`
 * - POST   /team/invitations/accept                           signed out: `acceptInvitationBody` → `messageAnswer`
 */

// ---- members ----

/** The specification's sub-user: both spellings of its fields, permissions in both forms. */
export const teamMemberSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.string(),
  /** The sub-user spelling (`projects_read`). */
  permissions: z.array(z.string()),
  /** The permission names (`Projects.Read`). */
  effectivePermissions: z.array(z.string()),
  is_active: z.boolean(),
  isActive: z.boolean(),
  status: z.enum(['invited', 'active', 'inactive']),
  invitation_expires_at: z.string().nullable(),
  parentUserId: z.string(),
  organisation_id: z.string(),
  parentUser: z.object({ firstName: z.string(), lastName: z.string(), email: z.string().nullable() }),
  /** Always empty: the organisation has one level of members. */
  subUsers: z.array(z.string()),
  created_at: z.string(),
  createdAt: z.string(),
  updated_at: z.string(),
  updatedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

/** The list: react-admin's bare array, or the envelope both team screens read (the partner's `data.totalCount`, the distributor's top-level `total`). */
export const teamListAnswer = z.union([
  z.array(teamMemberSchema),
  z.object({
    success: z.literal(true),
    data: z.object({
      subUsers: z.array(teamMemberSchema),
      totalCount: z.number().int(),
      currentPage: z.number().int(),
      totalPages: z.number().int(),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
    }),
    total: z.number().int(),
    page: z.number().int(),
    limit: z.number().int(),
    totalPages: z.number().int(),
  }),
]);

export const teamMemberAnswer = recordAnswer(teamMemberSchema);
/** A member added, or invited: the owner may pass the invitation's link on by hand. */
export const teamMemberCreatedAnswer = teamMemberAnswer.extend({ invitationLink: z.string().optional() });
export const teamMemberCreatedAnswers = { 200: teamMemberCreatedAnswer, 201: teamMemberCreatedAnswer, 202: acceptedAnswer } as const;

const name = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .min(2, `${label} must be at least 2 characters`)
    .max(60);
const email = z.email({ error: (i) => (i.input === undefined || i.input === '' ? 'Email is required' : 'Invalid email format') }).max(254);
export const PASSWORD_REQUIRED = 'Password is required';
const password = z.string({ error: PASSWORD_REQUIRED }).min(1, PASSWORD_REQUIRED).min(6, 'Password must be at least 6 characters').max(200);
const permissions = z.array(z.string().max(60), { error: 'Please select at least one permission' }).max(60);

const memberFields = {
  full_name: z.string().trim().min(2, 'Full name must be at least 2 characters').max(120).optional(),
  firstName: name('First name').optional(),
  lastName: name('Last name').optional(),
  email,
  permissions,
  is_active: z.boolean().optional(),
  isActive: z.boolean().optional(),
};

export const teamMemberCreateBody = z
  .object({
    ...memberFields,
    password: password.optional(),
    /** Send an invitation by e-mail instead of setting a password. */
    invite: z.boolean().optional(),
    parentUserId: z.uuid().nullable().optional(),
  })
  .strict()
  .meta({
    example: {
      full_name: 'Mara Lindqvist',
      email: 'mara.lindqvist@northwind.example',
      password: 'Secret123',
      permissions: ['projects_read', 'orders_track'],
      is_active: true,
    },
  });
export type TeamMemberCreateBody = z.infer<typeof teamMemberCreateBody>;

/** The fields of an edit (a blank password keeps the current one); the route ignores the member's read-only fields. */
export const teamMemberEditFields = { ...memberFields, password: z.union([z.literal(''), password]).optional() };

/** What a member record carries that an edit cannot change. */
export const MEMBER_READ_ONLY_FIELDS = [
  'id',
  'role',
  'status',
  'effectivePermissions',
  'invitation_expires_at',
  'parentUserId',
  'organisation_id',
  'parentUser',
  'subUsers',
  'created_at',
  'createdAt',
  'updated_at',
  'updatedAt',
];

export const resetPasswordBody = z
  .object({ newPassword: password })
  .strict()
  .meta({ example: { newPassword: 'Another2026!' } });

// ---- permissions and roles ----

export const teamMemberRole = z.enum(['partner_user', 'distributor_user']);
export const permissionsQuery = z.object({ role: teamMemberRole.optional() }).strict();
export const roleParam = z.object({ role: z.string().max(40) }).strict();

/** A permission as the picker shows it: both spellings, its category and action, and its label. */
export const permissionEntry = z.object({ name: z.string(), key: z.string(), category: z.string(), action: z.string(), label: z.string() });
export type PermissionEntry = z.infer<typeof permissionEntry>;

export const roleEntry = z.object({
  role: z.string(),
  label: z.string(),
  sub_user_role: z.string().nullable(),
  default_permissions: z.array(permissionEntry),
  assignable_permissions: z.array(permissionEntry),
});

export const permissionsAnswer = z.object({ success: z.literal(true), data: z.array(permissionEntry) });
export const permissionGroupsAnswer = z.object({
  success: z.literal(true),
  data: z.array(z.object({ category: z.string(), permissions: z.array(permissionEntry) })),
});
export const rolesAnswer = z.object({ success: z.literal(true), data: z.array(roleEntry) });
export const roleAnswer = z.object({ success: z.literal(true), data: roleEntry });
export const hierarchyAnswer = z.object({
  success: z.literal(true),
  data: z.array(
    z.object({ role: z.string(), label: z.string(), sub_user_role: z.string(), sub_user_label: z.string(), grantable_by_you: z.array(permissionEntry) }),
  ),
});

export const validatePermissionsBody = z
  .object({
    permissions: z.array(z.string().max(100)).max(100, 'At most 100 permissions.'),
    role: teamMemberRole.optional(),
  })
  .strict()
  .meta({ example: { permissions: ['Projects.Read', 'orders_track'], role: 'partner_user' } });
export const validatePermissionsAnswer = commandAnswer(
  z.object({ valid: z.boolean(), permissions: z.array(z.string()), unknown: z.array(z.string()), not_grantable: z.array(z.string()) }),
);

// ---- invitations ----

const invitationTokenField = z
  .string({ error: 'The invitation token is required.' })
  .max(300)
  .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'This invitation link is not valid.');
export const invitationQuery = z.object({ token: invitationTokenField }).strict();
export const acceptInvitationBody = z
  .object({ token: invitationTokenField, password: newPasswordRule })
  .strict()
  .meta({ example: { token: '00000000-0000-4000-8000-000000000000.00000000-0000-4000-8000-000000000001.signature', password: 'Secret123' } });

export const invitationView = z.object({ email: z.string(), full_name: z.string(), company_name: z.string().nullable(), expires_at: z.string() });
export type InvitationView = z.infer<typeof invitationView>;
export const invitationAnswer = z.object({ success: z.literal(true), data: invitationView });
