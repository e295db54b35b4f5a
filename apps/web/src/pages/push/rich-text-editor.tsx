import { useState, type ReactNode } from 'react';
import { App, Button, Divider, Input, Tooltip, Upload } from 'antd';
import {
  BoldOutlined,
  DisconnectOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { useTranslation } from 'react-i18next';
import { PUSH_LIMITS, sizeText } from '@lumigrid/contract/browser';
import { PICTURE_ACCEPT, pictureProblem } from '../../api/upload.ts';
import { usePushUpload } from '../../features/push/api.ts';
import { FormModal } from '../../components/form-modal.tsx';

const LINK = /^(https?:\/\/|mailto:)/i;

function ToolButton({
  label,
  active,
  disabled,
  onClick,
  children,
}: {
  label: string;
  active?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip title={label} mouseEnterDelay={0.4}>
      <Button
        type={active ? 'primary' : 'text'}
        ghost={active}
        size="small"
        aria-label={label}
        aria-pressed={active}
        disabled={disabled}
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      >
        {children}
      </Button>
    </Tooltip>
  );
}

type Chain = ReturnType<Editor['chain']>;

/** A switch of the toolbar: the mark or node it shows as active (with its attributes), and how it toggles. */
interface Format {
  label: 'bold' | 'italic' | 'underline' | 'strike' | 'heading2' | 'heading3' | 'bulletList' | 'orderedList' | 'quote';
  name: string;
  attrs?: Record<string, unknown>;
  icon: ReactNode;
  toggle: (chain: Chain) => Chain;
}

const MARKS: Format[] = [
  { label: 'bold', name: 'bold', icon: <BoldOutlined />, toggle: (chain) => chain.toggleBold() },
  { label: 'italic', name: 'italic', icon: <ItalicOutlined />, toggle: (chain) => chain.toggleItalic() },
  { label: 'underline', name: 'underline', icon: <UnderlineOutlined />, toggle: (chain) => chain.toggleUnderline() },
  { label: 'strike', name: 'strike', icon: <StrikethroughOutlined />, toggle: (chain) => chain.toggleStrike() },
];

const heading = (level: 2 | 3): Format => ({
  label: `heading${level}`,
  name: 'heading',
  attrs: { level },
  icon: <strong>{`H${level}`}</strong>,
  toggle: (chain) => chain.toggleHeading({ level }),
});

const BLOCKS: Format[] = [
  heading(2),
  heading(3),
  { label: 'bulletList', name: 'bulletList', icon: <UnorderedListOutlined />, toggle: (chain) => chain.toggleBulletList() },
  { label: 'orderedList', name: 'orderedList', icon: <OrderedListOutlined />, toggle: (chain) => chain.toggleOrderedList() },
  { label: 'quote', name: 'blockquote', icon: <strong>“ ”</strong>, toggle: (chain) => chain.toggleBlockquote() },
];

function Toolbar({ editor }: { editor: Editor }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const upload = usePushUpload();
  const [linking, setLinking] = useState<string>();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      marks: MARKS.map((format) => e.isActive(format.name)),
      blocks: BLOCKS.map((format) => e.isActive(format.name, format.attrs)),
      link: e.isActive('link'),
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  });
  const run = () => editor.chain().focus();
  const saveLink = () => {
    const href = linking?.trim() ?? '';
    if (href && !LINK.test(href)) {
      void message.error(t('push.editor.linkInvalid'));
      return;
    }
    if (href) run().extendMarkRange('link').setLink({ href }).run();
    else run().extendMarkRange('link').unsetLink().run();
    setLinking(undefined);
  };
  const switches = (formats: Format[], active: boolean[]) =>
    formats.map((format, i) => (
      <ToolButton key={format.label} label={t(`push.editor.${format.label}`)} active={active[i]} onClick={() => format.toggle(run()).run()}>
        {format.icon}
      </ToolButton>
    ));
  return (
    <div className="lg-push-editor__toolbar" role="toolbar" aria-label={t('push.editor.toolbar')}>
      {switches(MARKS, state.marks)}
      <Divider type="vertical" />
      {switches(BLOCKS, state.blocks)}
      <Divider type="vertical" />
      <ToolButton
        label={t('push.editor.link')}
        active={state.link}
        onClick={() => setLinking((editor.getAttributes('link').href as string | undefined) ?? 'https://')}
      >
        <LinkOutlined />
      </ToolButton>
      <ToolButton label={t('push.editor.unlink')} disabled={!state.link} onClick={() => run().extendMarkRange('link').unsetLink().run()}>
        <DisconnectOutlined />
      </ToolButton>
      <Upload
        accept={PICTURE_ACCEPT}
        showUploadList={false}
        beforeUpload={(file) => {
          const problem = pictureProblem(file, PUSH_LIMITS.imageBytes);
          if (problem === 'type') void message.error(t('push.picture.type'));
          else if (problem === 'size') void message.error(t('push.picture.size', { size: sizeText(PUSH_LIMITS.imageBytes) }));
          else upload.mutate({ purpose: 'content', file }, { onSuccess: (picture) => run().setImage({ src: picture.url, alt: '' }).run() });
          return false;
        }}
      >
        <Tooltip title={t('push.editor.image')} mouseEnterDelay={0.4}>
          <Button type="text" size="small" aria-label={t('push.editor.image')} loading={upload.isPending} icon={<PictureOutlined />} />
        </Tooltip>
      </Upload>
      <Divider type="vertical" />
      <ToolButton label={t('push.editor.undo')} disabled={!state.undo} onClick={() => run().undo().run()}>
        <UndoOutlined />
      </ToolButton>
      <ToolButton label={t('push.editor.redo')} disabled={!state.redo} onClick={() => run().redo().run()}>
        <RedoOutlined />
      </ToolButton>
      <FormModal
        open={linking !== undefined}
        title={t('push.editor.link')}
        okText={t('push.action.ok')}
        onOk={saveLink}
        onCancel={() => setLinking(undefined)}
      >
        <Input
          value={linking}
          onChange={(event) => setLinking(event.target.value)}
          onPressEnter={saveLink}
          placeholder="https://"
          autoFocus
          aria-label={t('push.editor.linkAddress')}
        />
      </FormModal>
    </div>
  );
}

/**
 * The news text editor: Tiptap (ProseMirror) with the marks and blocks the server's allow-list keeps, links to
 * http(s) and mailto only, and pictures uploaded to the server. A form control: `value` is the HTML at mount,
 * `onChange` gets each change.
 */
export function RichTextEditor({
  value,
  onChange,
  placeholder,
}: {
  value?: string;
  onChange?: (html: string) => void;
  placeholder: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ['http', 'https', 'mailto'],
          HTMLAttributes: { rel: 'noopener noreferrer nofollow' },
        },
      }),
      Image.configure({ inline: false, allowBase64: false }),
      Placeholder.configure({ placeholder }),
    ],
    content: value ?? '',
    // An empty editor sends '' so the form's required rule catches it.
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
  });
  return (
    <div className="lg-push-editor" data-testid="push-editor">
      {editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} className="lg-push-editor__body" />
    </div>
  );
}
