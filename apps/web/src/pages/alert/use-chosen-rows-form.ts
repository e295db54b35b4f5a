import { App, Form } from 'antd';

/**
 * The form of a dialog that does one thing to the rows chosen in a list (handle alerts, shelve alarms): OK
 * checks it, `apply` sends it for every row, the dialog says how many rows changed and closes. `afterClose`
 * forgets what was typed, so the next choice starts empty.
 */
export function useChosenRowsForm<V>(
  apply: (values: V) => Promise<{ count: number }>,
  doneText: (count: number) => string,
  onClose: (done: boolean) => void,
) {
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const submit = async () => {
    const done = await apply(await form.validateFields());
    void message.success(doneText(done.count));
    onClose(true);
  };
  return { form, submit, afterClose: () => form.resetFields() };
}
