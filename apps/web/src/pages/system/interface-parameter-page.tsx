import { ParamTemplatesView } from '../../features/virtual/param-templates-view.tsx';

/** /system/interfaceParameter: parameter sets of how devices communicate and what they may draw. */
export default function InterfaceParameterPage() {
  return <ParamTemplatesView kind="interface" />;
}
