import {
  EmptySchema,
  GatewaySyncResultSchema,
  GroupAddBodySchema,
  GroupCandidateListSchema,
  GroupCandidatesParamsSchema,
  GroupControlRequestSchema,
  GroupControlResultSchema,
  GroupDetailSchema,
  GroupIdParamsSchema,
  GroupMembersBodySchema,
  GroupUpdateBodySchema,
  GroupViewListSchema,
  GroupViewSchema,
  ZonePathCallBodySchema,
} from '@lumigrid/contract';
import { caller } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import { type Authenticate, requireAuth } from '../../http/guards.ts';
import { ACCESS, signedInDoc } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import type { GroupsService } from './groups.service.ts';

const tags = ['groups'];
const P = '/api4/zone/v1';
const { write: WRITE, control: CONTROL, read: READ } = ACCESS;
const RULES =
  'Members must be on the group map (270010) and gateway (100211), in fewer than 16 groups (100212); bridges and four-way switches only with their own kind (100202), emergency devices only with emergency devices (100203), at least one lighting device (100204), none selected 110009. Names 1-21 characters (100001, 100011), unique on the map (110007).';
const VERSION = "Raises the gateway's configuration version: the sync banner offers the gateway and a sync sends the group table.";

/** The zone calls of spec section 7 "Zones and groups", under /api4. */
export function registerGroupRoutes(app: App, deps: { groups: GroupsService; authenticate: Authenticate }) {
  const { groups } = deps;
  const onRequest = requireAuth(deps.authenticate);
  const doc = signedInDoc(tags);

  app.post(`${P}/list/:id`, {
    schema: {
      ...doc(
        'The groups of a map',
        `{id} is the map. Each group with its members' state: offlineCount says how many do not answer. ${READ}`,
        GroupViewListSchema,
      ),
      params: GroupIdParamsSchema,
      body: ZonePathCallBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.list(caller(request), request.params.id)),
  });

  app.post(`${P}/groups_for_gateway_id/:id`, {
    schema: {
      ...doc('The groups of a gateway, by group number', `{id} is the gateway. ${READ}`, GroupViewListSchema),
      params: GroupIdParamsSchema,
      body: ZonePathCallBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.forGateway(caller(request), request.params.id)),
  });

  app.post(`${P}/get/:id`, {
    schema: {
      ...doc('A group with its members', `Members as the floor plan draws them. ${READ}`, GroupDetailSchema),
      params: GroupIdParamsSchema,
      body: ZonePathCallBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.get(caller(request), request.params.id)),
  });

  app.post(`${P}/add`, {
    schema: {
      ...doc(
        'Create a group on a map and gateway',
        `The gateway allocates the lowest free group number 1-255 (none free: 100214). ${RULES} ${VERSION} ${WRITE}`,
        GroupViewSchema,
      ),
      body: GroupAddBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.add(caller(request), request.body)),
  });

  app.post(`${P}/update`, {
    schema: {
      ...doc('Rename a group and/or replace its members', `${RULES} ${VERSION} ${WRITE}`, GroupViewSchema),
      body: GroupUpdateBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.update(caller(request), request.body)),
  });

  app.post(`${P}/succeed_device`, {
    schema: {
      ...doc(
        'Add and remove members of a group',
        `The resulting members pass the same rules as a new group. ${RULES} ${VERSION} ${WRITE}`,
        GroupViewSchema,
      ),
      body: GroupMembersBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.changeMembers(caller(request), request.body)),
  });

  app.post(`${P}/delete/:id`, {
    schema: {
      ...doc('Delete a group', `The gateway drops it at its next sync. ${VERSION} ${WRITE}`, EmptySchema),
      params: GroupIdParamsSchema,
      body: ZonePathCallBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.remove(caller(request), request.params.id)),
  });

  app.post(`${P}/del_group_succeed/:id`, {
    schema: {
      ...doc(
        'Delete a group and sync its gateway now',
        `Answers when the gateway acknowledged a table without the group. An offline gateway answers 100101 and a missing acknowledgement 100107/100109; the deletion stands and the sync banner keeps offering the gateway. ${WRITE}`,
        GatewaySyncResultSchema,
      ),
      params: GroupIdParamsSchema,
      body: ZonePathCallBodySchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.removeAndSync(caller(request), request.params.id)),
  });

  app.get(`${P}/add_group_devices/:mapId/:gatewayId/:groupId/:type`, {
    schema: {
      ...doc(
        'The devices the member picker offers',
        `The devices of a map on a gateway; {groupId} the group being edited (its members are marked) or 0 for a new group, {type} a type code or 0 for all. problem says why a device cannot join (100201, 100212). ${READ}`,
        GroupCandidateListSchema,
      ),
      params: GroupCandidatesParamsSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.candidates(caller(request), request.params)),
  });

  app.post(`${P}/control`, {
    schema: {
      ...doc(
        'Control a group',
        `On/off, brightness 0-100 %, colour temperature 2700-6500 K or colour, as one group.control frame once the gateway runs the group; before its sync, one unicast per member that the gateway drains at its radio rate (mode unicast). No member able to do it 100209; offline gateway 100101. ${CONTROL}`,
        GroupControlResultSchema,
      ),
      body: GroupControlRequestSchema,
    },
    onRequest,
    handler: async (request) => ok(request, await groups.control(caller(request), request.body)),
  });
}
