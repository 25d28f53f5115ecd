package dev.bulwark.quarkus.deployment.devui;

import dev.bulwark.quarkus.devui.BulwarkJsonRpcService;
import dev.bulwark.quarkus.devui.LockKeysSeen;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;
import java.util.List;

/**
 * Bulwark's card in the Dev UI: a page of every limit with its effective values, where each came
 * from, and live what the store holds (holders, queue, available permits). The bindings found at
 * build time are the page's build-time data; the rest comes from {@link BulwarkJsonRpcService}.
 */
public class BulwarkDevUiProcessor {

  static final String PAGE_TITLE = "Limits";
  static final String COMPONENT = "qwc-bulwark-limits.js";

  @BuildStep(onlyIf = IsLocalDevelopment.class)
  CardPageBuildItem card(CombinedIndexBuildItem index) {
    List<GuardedMethod> guarded = GuardedMethods.in(index.getIndex());
    CardPageBuildItem card = new CardPageBuildItem();
    card.addBuildTimeData(
        "guardedMethods", guarded, "Bulwark's bindings the build found, as written");
    card.addPage(
        Page.webComponentPageBuilder()
            .title(PAGE_TITLE)
            .icon("font-awesome-solid:shield-halved")
            .componentLink(COMPONENT)
            .staticLabel(Integer.toString(GuardedMethods.limits(guarded))));
    return card;
  }

  /** Not for dev mode only: Quarkus reads it in every mode (see the build item). */
  @BuildStep
  JsonRPCProvidersBuildItem jsonRpc() {
    return new JsonRPCProvidersBuildItem(BulwarkJsonRpcService.class);
  }

  /** The lock keys the page inspects; a listener costs every call an event, so dev mode only. */
  @BuildStep(onlyIf = IsLocalDevelopment.class)
  AdditionalBeanBuildItem lockKeysSeen() {
    return AdditionalBeanBuildItem.builder()
        .addBeanClass(LockKeysSeen.class)
        .setDefaultScope(BuiltinScope.APPLICATION.getName())
        .setUnremovable()
        .build();
  }
}
