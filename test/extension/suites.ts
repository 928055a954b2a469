// Every suite that runs in the real extension host, in order.
import './commands.test';
import './optimize.test';
import './statusBar.test';
import './remote.test';
import './tools.test';
import './promptFiles.test';
import './stringLiterals.test';
