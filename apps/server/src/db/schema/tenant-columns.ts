import { identityId, refersTo } from './columns.ts';
import { users } from './users.ts';

/** The owning account of a tenant's row: the row goes with the account. */
export const tenantColumn = () => refersTo('tenant_id', () => users.id, 'cascade');

/** The columns every table of a tenant's own numbered rows opens with. */
export const tenantRowKeys = () => ({ id: identityId(), tenantId: tenantColumn() });
