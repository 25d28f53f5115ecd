package dev.bulwark.core.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bulwark.DistributedBulkhead;
import dev.bulwark.DistributedLock;
import dev.bulwark.LockMode;
import dev.bulwark.core.config.ConfigLookup;
import dev.bulwark.core.config.DefinitionResolver;
import dev.bulwark.core.config.InvalidDefinitionException;
import dev.bulwark.core.config.LimitDeclaration;
import dev.bulwark.core.config.LimitDefinition;
import dev.bulwark.core.config.LimitKind;
import dev.bulwark.core.config.Origin;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One method is resolved once; one name is one limit, so its declarations must agree on the values
 * the limit enforces but not on how each method waits or locks; a disabled declaration is listed
 * without claiming its name.
 */
class LimitCatalogTest {

  static class Orders {
    @DistributedBulkhead(name = "shared", value = 5, waitingTime = 1)
    public void place() {}

    @DistributedBulkhead(name = "shared", value = 5, waitingTime = 3)
    public void cancel() {}

    @DistributedBulkhead(name = "shared", value = 6)
    public void bulk() {}

    @DistributedBulkhead(value = 0)
    public void broken() {}

    @DistributedLock(name = "ledger", mode = LockMode.READ)
    public void read() {}

    @DistributedLock(name = "ledger", mode = LockMode.WRITE, waitingTime = 1)
    public void write() {}
  }

  private static final String ORDERS = Orders.class.getName();

  private static Method method(String name) throws NoSuchMethodException {
    return Orders.class.getMethod(name);
  }

  private static LimitDeclaration declaration(String name) throws NoSuchMethodException {
    Method method = method(name);
    Annotation annotation =
        method.isAnnotationPresent(DistributedLock.class)
            ? method.getAnnotation(DistributedLock.class)
            : method.getAnnotation(DistributedBulkhead.class);
    return LimitDeclaration.ofAnnotation(
        Orders.class, method, Origin.of(Orders.class, method), annotation);
  }

  @Test
  void aMethodIsResolvedOnceAndKnownByItsBeanClassMethodAndKind() throws Exception {
    DefinitionResolver resolver = new DefinitionResolver(ConfigLookup.empty());
    LimitCatalog catalog = new LimitCatalog(resolver);

    LimitDefinition place = catalog.declare(declaration("place"));

    assertThat(catalog.declare(declaration("place"))).isSameAs(place);
    assertThat(resolver.resolutions()).isEqualTo(1);
    assertThat(catalog.resolver()).isSameAs(resolver);
    assertThat(catalog.forMethod(Orders.class, method("place"), LimitKind.BULKHEAD))
        .isSameAs(place);
    assertThat(catalog.forMethod(Orders.class, method("place"), LimitKind.LOCK)).isNull();
    assertThat(catalog.forMethod(Orders.class, method("cancel"), LimitKind.BULKHEAD)).isNull();
    assertThat(catalog.definitions()).containsExactly(place);
  }

  @Test
  void programmaticDeclarationsHaveNoMethodToBeKnownBy() {
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(ConfigLookup.empty()));

    LimitDefinition accounts =
        catalog.declare(LimitDeclaration.programmatic(LimitKind.LOCK, "accounts"));
    LimitDefinition ledger =
        catalog.declare(LimitDeclaration.programmatic(LimitKind.LOCK, "ledger"));

    assertThat(accounts.name()).isEqualTo("accounts");
    assertThat(ledger.name()).isEqualTo("ledger");
    assertThat(catalog.named(LimitKind.LOCK, "ledger")).contains(ledger);
    assertThat(catalog.definitions()).containsExactly(accounts, ledger);
  }

  @Test
  void methodsSharingANameMayWaitAndLockDifferentlyAndShareOneLimit() throws Exception {
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(ConfigLookup.empty()));

    LimitDefinition place = catalog.declare(declaration("place"));
    LimitDefinition cancel = catalog.declare(declaration("cancel"));
    LimitDefinition read = catalog.declare(declaration("read"));
    LimitDefinition write = catalog.declare(declaration("write"));

    assertThat(catalog.named(LimitKind.BULKHEAD, "shared")).containsSame(place);
    assertThat(catalog.named(LimitKind.LOCK, "ledger")).containsSame(read);
    assertThat(catalog.named(LimitKind.LOCK, "shared")).isEmpty();
    assertThat(catalog.limits()).containsExactlyInAnyOrder(place, read);
    assertThat(catalog.definitions()).containsExactly(place, cancel, read, write);
    assertThat(catalog.forMethod(Orders.class, method("cancel"), LimitKind.BULKHEAD))
        .isSameAs(cancel);
  }

  @Test
  void aNameDeclaredWithOtherValuesConflictsNamingBothMethodsAndWhatTheyEnforce() throws Exception {
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(ConfigLookup.empty()));
    LimitDefinition place = catalog.declare(declaration("place"));
    LimitDeclaration bulk = declaration("bulk");

    assertThatThrownBy(() -> catalog.declare(bulk))
        .isInstanceOf(InvalidDefinitionException.class)
        .hasMessage(
            "Invalid @DistributedBulkhead 'shared': declared with different values on "
                + ORDERS
                + "#place (value=5, lease=30s) and on "
                + ORDERS
                + "#bulk (value=6, lease=30s). One name is one limit shared by every method that"
                + " uses it: give both the same values (e.g. with"
                + " bulwark.bulkhead.shared.<member>) or different names");
    assertThat(catalog.definitions()).containsExactly(place);
    assertThat(catalog.forMethod(Orders.class, method("bulk"), LimitKind.BULKHEAD)).isNull();
    assertThat(catalog.named(LimitKind.BULKHEAD, "shared")).containsSame(place);
  }

  @Test
  void aDisabledDeclarationIsListedButNeitherClaimsNorIsCheckedAgainstItsName() throws Exception {
    LimitCatalog catalog =
        new LimitCatalog(
            new DefinitionResolver(
                ConfigLookup.of(Map.of(ORDERS + "/bulk/DistributedBulkhead/enabled", "false"))));

    LimitDefinition bulk = catalog.declare(declaration("bulk"));
    assertThat(bulk.enabled()).isFalse();
    assertThat(catalog.named(LimitKind.BULKHEAD, "shared")).isEmpty();

    LimitDefinition place = catalog.declare(declaration("place"));

    assertThat(catalog.named(LimitKind.BULKHEAD, "shared")).containsSame(place);
    assertThat(catalog.limits()).containsExactly(place);
    assertThat(catalog.definitions()).containsExactly(bulk, place);
    assertThat(catalog.forMethod(Orders.class, method("bulk"), LimitKind.BULKHEAD)).isSameAs(bulk);
  }

  @Test
  void declaringAllReportsEveryInvalidOrConflictingDeclarationAndKeepsTheRest() throws Exception {
    LimitCatalog catalog = new LimitCatalog(new DefinitionResolver(ConfigLookup.empty()));

    List<String> problems =
        catalog.declareAll(
            List.of(
                declaration("place"),
                declaration("bulk"),
                declaration("broken"),
                declaration("cancel")));

    assertThat(problems).hasSize(2);
    assertThat(problems.get(0)).contains(ORDERS + "#bulk", "different values");
    assertThat(problems.get(1)).contains(ORDERS + "#broken", "'value'");
    assertThat(catalog.definitions())
        .extracting(d -> d.origin().methodName())
        .containsExactly("place", "cancel");
  }
}
