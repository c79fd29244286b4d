// The main of every GUI test: a QApplication on the offscreen platform (unless the caller
// chose another), at 96 DPI so pixel positions are the same everywhere, then Catch2.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setAttribute(Qt::AA_Use96Dpi);
    QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
