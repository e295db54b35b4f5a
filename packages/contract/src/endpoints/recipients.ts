import { endpoint } from '../endpoint.ts';
import { EmptySchema } from '../common.ts';
import {
  RecipientAddBodySchema,
  RecipientEditBodySchema,
  RecipientIdQuerySchema,
  RecipientListQuerySchema,
  RecipientListSchema,
  RecipientSchema,
  RecipientSwitchParamsSchema,
} from '../recipients.ts';

/** The mail recipient calls of spec section 7 "Mail recipients": who gets a project's mailed reports. */
export const recipientEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api4/project/v1/get_all_mail_rec',
    tags: ['reports'],
    summary: 'The report recipients of a project, in the order they were added',
    description: 'A project of another account, or one a limited sub-account is not given, answers 110011.',
    access: 'read',
    objects: { query: { projectId: 'project' } },
    query: RecipientListQuerySchema,
    response: RecipientListSchema,
  }),
  add: endpoint({
    method: 'POST',
    path: '/api4/project/v1/add_mail_rec',
    tags: ['reports'],
    summary: 'Add a report recipient to a project; its first report is scheduled at once',
    description:
      'monthDay is required for a monthly unit and weekday for a weekly one (100303); timeZone must be an IANA zone (100302); at most 50 recipients per project (100301).',
    access: 'write',
    objects: { body: { projectId: 'project' } },
    body: RecipientAddBodySchema,
    response: RecipientSchema,
    errors: [100301, 100302, 100303],
  }),
  edit: endpoint({
    method: 'POST',
    path: '/api4/project/v1/edit_mail_rec',
    tags: ['reports'],
    summary: 'Change a report recipient; its next report is scheduled again',
    description: 'Every field is sent again, as add_mail_rec takes them; the project stays. An unknown id answers 110011.',
    access: 'write',
    objects: { body: { id: 'recipient' } },
    body: RecipientEditBodySchema,
    response: RecipientSchema,
    errors: [100302, 100303],
  }),
  remove: endpoint({
    method: 'GET',
    path: '/api4/project/v1/del_mail_rec',
    tags: ['reports'],
    summary: 'Remove a report recipient; reports already scheduled for it are not sent',
    access: 'write',
    objects: { query: { id: 'recipient' } },
    query: RecipientIdQuerySchema,
    response: EmptySchema,
  }),
  realtimeSwitch: endpoint({
    method: 'GET',
    path: '/api4/project/v1/edit_switch/:id/:on',
    tags: ['reports'],
    summary: 'Switch a recipient\u2019s real-time failure alert mails on (1) or off (0)',
    description:
      'On, each fault raised in the project is mailed to the recipient; at most one mail per 10 minutes, faults raised meanwhile go out together. Faults raised before the switch was turned on are not mailed.',
    access: 'write',
    objects: { params: { id: 'recipient' } },
    params: RecipientSwitchParamsSchema,
    response: RecipientSchema,
  }),
};
