import type { ProColumns } from '@ant-design/pro-components';

/** A search field that picks one of `codes` by its label: a filter above the table, not a column of it. */
export function choiceFilter<Row, Code extends string | number>(
  title: string,
  dataIndex: string,
  codes: readonly Code[],
  label: (code: Code) => string,
): ProColumns<Row> {
  return {
    title,
    dataIndex,
    hideInTable: true,
    valueType: 'select',
    valueEnum: Object.fromEntries(codes.map((code) => [code, { text: label(code) }])),
  };
}

/** A search field for a range of days (`placeholder` names its two ends): a filter above the table, not a column of it. */
export function dayRangeFilter<Row>(title: string, dataIndex: string, placeholder: [string, string]): ProColumns<Row> {
  return { title, dataIndex, hideInTable: true, valueType: 'dateRange', fieldProps: { placeholder } };
}
