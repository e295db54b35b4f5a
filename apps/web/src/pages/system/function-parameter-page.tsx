import { ParamTemplatesView } from '../../features/virtual/param-templates-view.tsx';

/** /system/functionParameter: parameter sets of how devices behave (hold time, lux, fade, levels...). */
export default function FunctionParameterPage() {
  return <ParamTemplatesView kind="function" />;
}
