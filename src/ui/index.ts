// ui: what other folders use of it (the only file they import).
export {
  ask,
  choose,
  confirm,
  inform,
  scriptJson,
  showDialogFile,
  showProgressDialog,
  showSidebarFile,
  toast,
} from './dialogs';
