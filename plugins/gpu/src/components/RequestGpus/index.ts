export { RequestGpusButton } from './RequestGpusButton';
