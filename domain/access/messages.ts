/** Messages shown or returned when access is refused. */

/** Shown on the disabled overlay of the permission guard. */
export const PERMISSION_DENIED_MESSAGE = "You don't have permission to perform this action";

/** Returned by the server when a permission check fails. */
export const CONTACT_ADMIN_MESSAGE = 'You do not have permission to perform this action. Please contact your administrator.';

/** Returned when someone other than an administrator tries to change a user's permissions. */
export const ONLY_ADMINS_UPDATE_PERMISSIONS = 'Only administrators can update user permissions';
