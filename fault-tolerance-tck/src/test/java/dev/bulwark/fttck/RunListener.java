package dev.bulwark.fttck;

import java.util.Optional;
import java.util.logging.Logger;
import org.testng.IInvokedMethod;
import org.testng.IInvokedMethodListener;
import org.testng.ISuite;
import org.testng.ISuiteListener;
import org.testng.ITestListener;
import org.testng.ITestResult;
import org.testng.SkipException;

/**
 * Logs each TCK test as it starts and ends (the run's log then says which test a container message
 * belongs to), and skips the bridge-redis run as a whole when no Redis server can be had: every
 * method, Arquillian's own setup included, is skipped with the reason, which names the variable to
 * set. When the bridge-redis run ends, the keys it made are deleted ({@link RunKeys}).
 */
public class RunListener implements ITestListener, IInvokedMethodListener, ISuiteListener {

  private static final Logger LOG = Logger.getLogger(RunListener.class.getName());

  @Override
  public void beforeInvocation(IInvokedMethod method, ITestResult testResult) {
    if (TckRun.current() != TckRun.BRIDGE_REDIS) {
      return;
    }
    Optional<String> reason = TckRedis.unavailableReason();
    if (reason.isPresent()) {
      throw new SkipException(reason.get());
    }
  }

  @Override
  public void onFinish(ISuite suite) {
    if (TckRun.current() == TckRun.BRIDGE_REDIS) {
      TckRedis.urlFound().ifPresent(RunKeys::deleteAll);
    }
  }

  @Override
  public void onTestStart(ITestResult result) {
    LOG.info(() -> TckRun.current().id() + ": starting " + name(result));
  }

  @Override
  public void onTestSuccess(ITestResult result) {
    LOG.info(() -> TckRun.current().id() + ": passed " + name(result));
  }

  @Override
  public void onTestFailure(ITestResult result) {
    LOG.info(() -> TckRun.current().id() + ": FAILED " + name(result));
  }

  @Override
  public void onTestSkipped(ITestResult result) {
    LOG.info(() -> TckRun.current().id() + ": skipped " + name(result));
  }

  private static String name(ITestResult result) {
    return result.getTestClass().getName() + "#" + result.getMethod().getMethodName();
  }
}
