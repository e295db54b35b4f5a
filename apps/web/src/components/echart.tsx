import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { SVGRenderer } from 'echarts/renderers';
import EChartsCore from 'echarts-for-react/esm/core';
import { isLang, type Lang } from '@lumigrid/contract/browser';
import { useTranslation } from 'react-i18next';

// Only what the screens draw, so the chunk stays small. SVG: the browser lays out the text, so CJK glyphs
// fall back per character like the rest of the page, and the labels stay crisp at any zoom.
echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const LATIN_FACES = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans'";

/** The CJK faces of each language first, so shared Han characters take that language's glyph forms. */
const CJK_FACES: Record<Lang, string> = {
  cn: "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC'",
  tc: "'PingFang TC', 'Microsoft JhengHei', 'Noto Sans CJK TC'",
  ja: "'Hiragino Sans', 'Yu Gothic', Meiryo, 'Noto Sans CJK JP'",
  en: "'Noto Sans CJK SC', 'Noto Sans CJK JP'",
};

/** The font stack of chart texts for a language (ECharts does not inherit the page's font). */
export function chartFontFamily(lang: Lang): string {
  return `${LATIN_FACES}, ${CJK_FACES[lang]}, sans-serif`;
}

/** The chart font stack of the language the app speaks now. */
export function useChartFont(): string {
  const { i18n } = useTranslation();
  return chartFontFamily(isLang(i18n.language) ? i18n.language : 'en');
}

/** What ECharts hands a click handler; only the fields the screens read. */
export interface ChartClick {
  componentType: string;
  dataIndex: number;
}

/** One ECharts chart sized by its container; `label` names it for screen readers. */
export function EChart({
  option,
  height,
  label,
  testId,
  onClick,
}: {
  option: EChartsCoreOption;
  height: number;
  label: string;
  testId?: string;
  onClick?(event: ChartClick): void;
}) {
  return (
    <div role="img" aria-label={label} data-testid={testId}>
      <EChartsCore
        echarts={echarts}
        option={option}
        notMerge
        opts={{ renderer: 'svg' }}
        style={{ height, width: '100%' }}
        onEvents={onClick ? { click: onClick } : undefined}
      />
    </div>
  );
}
