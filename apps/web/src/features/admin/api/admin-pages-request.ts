/**
 * Every call of the Dashboard, Analytics, Financial, Moderation, Communications and Bulk Operations
 * pages goes through the admin branch's `adminRequest`: it sends the X-Admin-Session header and turns
 * ADMIN_SESSION_EXPIRED into the "Admin Session Expired" card.
 */
export { adminRequest as adminPagesRequest } from './admin-request';
