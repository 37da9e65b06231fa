/** The sub-user form of the specification (002 §5), and how the team screens show a member. */

export interface TeamMemberForm {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  permissions: string[];
  isActive: boolean;
  invite: boolean;
}

export type TeamFormErrors = Partial<Record<'firstName' | 'lastName' | 'email' | 'password' | 'permissions', string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function nameError(label: string, value: string): string | undefined {
  if (!value.trim()) return `${label} is required`;
  if (value.trim().length < 2) return `${label} must be at least 2 characters`;
  return undefined;
}

/** Every message the form shows; submit stays disabled while any is present. */
export function validateTeamMember(form: TeamMemberForm, mode: 'create' | 'edit'): TeamFormErrors {
  const errors: TeamFormErrors = {};
  const first = nameError('First name', form.firstName);
  if (first) errors.firstName = first;
  const last = nameError('Last name', form.lastName);
  if (last) errors.lastName = last;
  if (!form.email.trim()) errors.email = 'Email is required';
  else if (!EMAIL.test(form.email.trim())) errors.email = 'Invalid email format';
  const passwordNeeded = mode === 'create' && !form.invite;
  if (passwordNeeded && !form.password) errors.password = 'Password is required';
  else if (form.password && form.password.length < 6) errors.password = 'Password must be at least 6 characters';
  if (form.permissions.length === 0) errors.permissions = 'Please select at least one permission';
  return errors;
}

/** Permissions grouped by the text before the first underscore (`projects_read` → projects). */
export function groupPermissions(permissions: readonly string[]): Array<{ category: string; actions: string[] }> {
  const groups = new Map<string, string[]>();
  for (const permission of permissions) {
    const [category, ...action] = permission.split('_');
    groups.set(category, [...(groups.get(category) ?? []), action.join('_')]);
  }
  return [...groups].map(([category, actions]) => ({ category, actions }));
}

/** 'Showing X to Y of N team members'. */
export function showingText(page: number, pageSize: number, shown: number, total: number): string {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  return `Showing ${from} to ${(page - 1) * pageSize + shown} of ${total} team members`;
}

/** At most five names, then '+N more'. */
export function firstFive(names: readonly string[]): { shown: string[]; more: string | null } {
  return { shown: names.slice(0, 5), more: names.length > 5 ? `+${names.length - 5} more` : null };
}

export const TEAM_TEXTS = {
  title: 'Team Management',
  add: 'Add Team Member',
  loadError: 'Error Loading Team Members',
  empty: 'No team members yet. Add your first team member!',
  emptySearch: 'No team members found matching your search.',
  added: 'Team member added successfully!',
  updated: 'Team member updated successfully!',
  deleted: 'Team member deleted successfully!',
  addFailed: 'Failed to add team member',
  updateFailed: 'Failed to update team member',
  deleteFailed: 'Failed to delete team member',
} as const;
