// Lists the open faults of a project and switches a group of it on, with an API key of scope `control`:
//   LUMIGRID_URL=https://lumigrid.example.com LUMIGRID_API_KEY=lg_... npx tsx examples/faults-and-group.ts ["Project"] ["Group"]
// Without names it takes the first project that has a map with a group, and that group.
import { pathToFileURL } from 'node:url';
import { createClient, LumigridError, type Alert, type GroupControlResult, type GroupView, type TreeProject } from '@lumigrid/sdk';

export interface FaultsAndGroupOptions {
  baseUrl: string;
  apiKey: string;
  /** The project's name or id; the first project with a group without it. */
  project?: string;
  /** The group's name; the project's first group without it. */
  group?: string;
  /** Where the lines go. */
  print?: (line: string) => void;
}

export interface FaultsAndGroupResult {
  project: TreeProject;
  faults: Alert[];
  group: GroupView;
  control: GroupControlResult;
}

export async function main(options: FaultsAndGroupOptions): Promise<FaultsAndGroupResult> {
  const { print = console.log } = options;
  const lumigrid = createClient({ baseUrl: options.baseUrl, apiKey: options.apiKey, lang: 'en' });

  // The whole tree the key sees: projects with their buildings and maps.
  const { projects } = await lumigrid.projects.tree({ params: { id: '0' } });
  const groupsOf = async (project: TreeProject) => {
    const groups: GroupView[] = [];
    for (const map of project.builds.flatMap((b) => b.maps)) groups.push(...(await lumigrid.groups.list({ params: { id: map.id } })));
    return groups;
  };
  let chosen: { project: TreeProject; groups: GroupView[] } | undefined;
  for (const project of projects) {
    if (options.project !== undefined && project.name !== options.project && project.id !== options.project) continue;
    const groups = await groupsOf(project);
    if (options.project !== undefined || groups.length > 0) {
      chosen = { project, groups };
      break;
    }
  }
  if (!chosen) throw new Error(options.project ? `no project ${options.project}` : 'no project with a group');
  const { project, groups } = chosen;

  const page = await lumigrid.alerts.page({ body: { projectId: project.id, open: true, pageSize: 100 } });
  print(`${project.name}: ${page.total} open fault(s)`);
  for (const fault of page.list) print(`  ${fault.raisedAt}  fault ${fault.code}  ${fault.name} (${fault.mapName})`);

  const group = options.group ? groups.find((g) => g.name === options.group) : groups[0];
  if (!group) throw new Error(`no group ${options.group ?? ''} in ${project.name}`);
  const control = await lumigrid.groups.control({ body: { id: group.id, action: { op: 'onOff', on: true } } });
  print(`switched ${group.name} on: ${control.targets} light(s), ${control.frames} radio frame(s) as ${control.mode}`);
  return { project, faults: page.list, group, control };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { LUMIGRID_URL, LUMIGRID_API_KEY } = process.env;
  if (!LUMIGRID_URL || !LUMIGRID_API_KEY) {
    console.error('Set LUMIGRID_URL and LUMIGRID_API_KEY.');
    process.exit(2);
  }
  const [project, group] = process.argv.slice(2);
  main({ baseUrl: LUMIGRID_URL, apiKey: LUMIGRID_API_KEY, project, group }).catch((error: unknown) => {
    // A refusal names the platform's code and message (101003: the key has expired; 110003: beyond its scope).
    console.error(error instanceof LumigridError ? `refused: ${error.code} ${error.msg}` : error);
    process.exit(1);
  });
}
